#pragma once
/// Your own integrators and problems in your own program, with the whole `study` command line (docs/extend.md;
/// examples/):
///
///   #include "study/extend.hpp"   // include/ode_accuracy_harness/ of the installed package
///   int main(int argc, char** argv) {
///     study::register_integrator<MyVerlet>();        // beside the built-in integrators, on every shipped problem
///     study::register_problem<MyProblem>();          // beside the shipped problems, with every built-in integrator
///     study::register_pair<MyVerlet, MyProblem>();   // the one on the other
///     study::register_controller<MyPI>("my-pi", {"beta"});  // a step-size controller for the adaptive integrators
///     return study::cli_main(argc, argv);            // run, report, check, baseline, bench, list, method, reference
///   }
///
/// Link ode_accuracy_harness::cli.  For a short edit-to-verdict loop, register integrators, problems and pairs in
/// three files (study/extend/integrator.hpp and pair.hpp are light, study/extend/problem.hpp is not).

#include "study/cli.hpp"
#include "study/extend/controller.hpp"
#include "study/extend/integrator.hpp"
#include "study/extend/pair.hpp"
#include "study/extend/problem.hpp"
