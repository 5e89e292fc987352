// Must not compile: a problem given to register_problem as a class (a problem's double instance, as a user
// writing it in double only would) rather than as its class template; register_problem says so in a sentence
// (tests/CMakeLists.txt expects it), not with "no matching function".
#include "study/extend/problem.hpp"
#include "study/problems/harmonic.hpp"

void register_it() { study::register_problem<study::Harmonic<double>>(); }
