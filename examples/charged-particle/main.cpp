// `study` with the charged particle beside the shipped problems: every command as `study` has it.
#include "study/cli.hpp"

void register_particle_problems();

int main(int argc, char** argv) {
  register_particle_problems();
  return study::cli_main(argc, argv);
}
