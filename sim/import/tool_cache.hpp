// A disk cache of the toolkit's deterministic runs (ptxas, nvdisasm): what a run printed, kept
// under a key holding everything the run depends on (its input text, its arguments, and each
// program's identity: path, size and modification time). A lookup compares the whole key, not
// only its hash, so two different inputs never share an entry; a new toolkit changes the
// identities and so misses. Repeated runs of one kernel (a test suite, a sweep, `run` after
// `sass`) then assemble it once.
//
// Where: $WARPSIM_CACHE_DIR, else $XDG_CACHE_HOME/warpsim, else $HOME/.cache/warpsim, each with
// a `tools` folder; WARPSIM_CACHE_DIR=off turns the cache off. A cache that cannot be read or
// written is skipped silently: the tools then simply run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::toolkit {

// The outputs stored under `key` in the cache's folder, when the cache is on and holds exactly
// `count` outputs for that key.
std::optional<std::vector<std::string>> cached_run(const std::string& key, std::size_t count);
// Stores a run's outputs there (nothing when the cache is off).
void remember_run(const std::string& key, const std::vector<std::string>& outputs);

// The cache's folder, or nothing when it is off or no folder can be named.
std::optional<std::filesystem::path> tool_cache_directory();

// "path size mtime" of a program: changes when the program is replaced.
std::string program_identity(const std::string& path);

// The outputs stored under `key` in `dir`, if that very key was stored.
std::optional<std::vector<std::string>> cached_outputs(const std::filesystem::path& dir,
                                                       const std::string& key);

// Stores `outputs` under `key` (atomically: a reader sees all of an entry or none of it).
void store_outputs(const std::filesystem::path& dir, const std::string& key,
                   const std::vector<std::string>& outputs);

}  // namespace warpsim::toolkit
