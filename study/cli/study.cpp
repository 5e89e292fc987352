// The `study` command (study/cli.hpp): the shipped integrators and problems only.
#include "study/cli.hpp"

int main(int argc, char** argv) { return study::cli_main(argc, argv); }
