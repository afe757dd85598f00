#include <exception>
#include <iostream>
#include <new>

#include "tools/warpsim/cli.hpp"

int main(int argc, char** argv) {
  using warpsim::cli::kExitInternalError;
  using warpsim::cli::kExitOutOfMemory;
  try {
    return warpsim::cli::run(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    // Sizes are checked up front (buffers against the host's memory, blocks against the SM); what
    // remains is the host running short of memory for the simulation's own state.
    std::cerr << "warpsim: error: out of memory: this machine could not give the memory the run "
                 "needed; make the launch smaller (fewer or smaller buffers, a smaller grid)\n";
    return kExitOutOfMemory;
  } catch (const std::exception& e) {
    // Reaching here is a bug in warpsim, not the user's input.
    std::cerr << "warpsim: internal error: " << e.what() << '\n';
    return kExitInternalError;
  }
}
