// One entry point per command group; each parses its own arguments.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace warpsim::cli {

// `warpsim ir check|print|cfg ...`
int run_ir(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim run FILE ...`
int run_kernel(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim check FILE ...`: hazard checks; exit 1 when any hazard is found
int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim step FILE ...`; commands come from `in` unless --script names a file.
int run_step(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
             std::ostream& err);

// `warpsim banks --array ... --index ...`
int run_banks(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim config show|list ...`
int run_config(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim occupancy ...`
int run_occupancy(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim import FILE.cu|FILE.ptx [-o OUT.kir]`
int run_import(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim sass FILE`
int run_sass(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim ptx FILE`
int run_ptx(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim validate FILE...|--all`: exit 0 when everything agrees, 1 on a mismatch
int run_validate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim counters [--measured all|functional|timing]`
int run_counters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim sweep SPEC ...`: exit 1 when some point failed or was not run
int run_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `warpsim bench ...`
int run_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace warpsim::cli
