#include <exception>
#include <iostream>

#include "tools/warpsim/cli.hpp"

int main(int argc, char** argv) {
  try {
    return warpsim::cli::run(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
  } catch (const std::exception& e) {
    // Reaching here is a bug in warpsim, not the user's input.
    std::cerr << "warpsim: internal error: " << e.what() << '\n';
    return 70;
  }
}
