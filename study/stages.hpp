#pragma once
/// The stages of a study, in the order run_studies (engine.cpp) runs them, one folder each.  The folders are
/// layers (tests/architecture/layers.txt): spec/ at the bottom, then results/ (the model every later stage writes
/// into, and the fits), plan/, measure/; each includes only the layers below it.
///   spec/      a spec (TOML, the command line, standard input) -> a validated Spec, its integrators and their
///              method tables (study/methods/); every error is found here, before any work
///   plan/      per spec, the context (the double-rounded parameters, the reference, the caches); then every
///              run, long energy run and stability search of every spec -> tasks with result slots
///   measure/   one task: one method (type-erased, stepper.hpp; bound in binding.hpp) on one problem, with its
///              run cache; sweep.cpp for dt = "auto", which decides its runs as it goes; the thread pool
///   results/   the order fits and their verdicts; results.json and the CSV files
/// Data flows one way: each stage reads what the ones before it made.

#include "study/measure/binding.hpp"
#include "study/measure/parallel.hpp"
#include "study/measure/runners.hpp"
#include "study/plan/context.hpp"
#include "study/plan/plan.hpp"
#include "study/results/orders.hpp"
#include "study/spec/spec.hpp"
