#pragma once
/// The whole `study` command line (run, report, check, baseline, bench, method, reference, list), as a function: the
/// shipped `study` is main() calling it, and a user's program calls it after registering its own integrators and
/// problems (study/extend.hpp).  Returns the exit status (0, 1 a failed gate or reference, 2 bad input, 130
/// interrupted); throws nothing.

namespace study {

int cli_main(int argc, char** argv);

}  // namespace study
