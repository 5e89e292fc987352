// `study` with the engine's integrators beside the built-in ones: every command (run, report, check, baseline,
// bench, list, method, reference) as `study` has it.
#include "study/cli.hpp"

void register_game_integrators();

int main(int argc, char** argv) {
  register_game_integrators();
  return study::cli_main(argc, argv);
}
