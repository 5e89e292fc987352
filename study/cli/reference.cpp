// `study reference PROBLEM --at T,...`: the certified float128 reference state of a problem, as JSON.
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "reference/reference.hpp"
#include "study/cli/options.hpp"
#include "study/registry/extensions.hpp"
#include "study/spec/spec.hpp"

namespace study::cli {
namespace {

struct ReferenceArgs {
  std::string problem;
  std::vector<std::string> params;
  std::string at;
  double tolerance = reference::Options{}.tolerance;
  std::string cache_dir;
  bool cache_dir_given = false;
  bool no_cache = false;
  Limits limits;  ///< --max-work
};

int run_reference(const ReferenceArgs& a) {
  reference::Request request;
  request.problem = a.problem;
  for (const auto& [k, v] : param_pairs(a.params)) request.params[k] = v;
  if (!std::isfinite(a.tolerance) || a.tolerance < 1e-29 || a.tolerance > 1e-10)
    throw SpecError(fmt::format("--tol {:g}: must lie in [1e-29, 1e-10] (float128 references; the certifying solve is "
                                       "100 x tighter)", a.tolerance));
  if (a.cache_dir_given) check_output_dir(a.cache_dir, "--cache-dir");
  // The problem and its parameters first (their errors name the valid range), then the times against its time scale.
  double time_scale = 1, evaluation_cost = 1;
  try {
    const ProblemFacts facts = problem_facts(a.problem, request.params);
    time_scale = facts.period, evaluation_cost = facts.evaluation_cost;
  } catch (const ParamError& e) {
    throw SpecError(e.what());
  }
  if (const std::string why = time_scale_problem(a.problem, time_scale); !why.empty()) throw SpecError(why);
  const double latest = max_time_scales * time_scale;
  for (const auto& t : split_list(a.at, "--at")) {
    double x = 0;
    try {
      request.times.push_back(reference::from_decimal(t));
      x = static_cast<double>(request.times.back());
    } catch (const std::exception&) {
      throw SpecError("--at: '" + t + "' is not a number (give times as --at 1,2.5,10)");
    }
    if (!(x >= 0 && x <= latest))
      throw SpecError("--at " + t + ": times must lie in [0, " + fmt::format("{:.6g}", latest) + "] (" +
                             fmt::format("{:g}", max_time_scales) + " time scales of " + a.problem + ", whose time scale is " +
                             fmt::format("{:.6g}", time_scale) + ")");
    if (request.times.size() > 1 && !(request.times.back() > request.times[request.times.size() - 2]))
      throw SpecError("--at: times must increase (" + t + " comes after a later or equal time)");
  }
  if (request.times.empty()) throw SpecError("--at: give at least one time, e.g. --at 1,2.5,10");
  const double t_last = static_cast<double>(request.times.back());
  check_work(reference_cost(t_last, time_scale, evaluation_cost), a.limits,
             fmt::format("a reference to t = {:.6g} ({:.3g} time scales of {})", t_last, t_last / time_scale, a.problem),
             "ask for earlier times");
  reference::Options options;
  options.tolerance = a.tolerance;
  options.budget = {.left = std::make_shared<std::atomic<double>>(a.limits.work),
                    .per_evaluation = reference_work_per_evaluation * evaluation_cost};
  options.use_cache = !a.no_cache;
  if (!a.cache_dir.empty()) options.cache_dir = a.cache_dir;
  const reference::Reference r = reference::compute(request, options);

  nlohmann::ordered_json out;
  out["problem"] = r.problem;
  for (const auto& [k, v] : r.params) out["params"][k] = v;
  out["tolerance"] = r.tolerance;
  out["check_tolerance"] = r.check_tolerance;
  out["error_bound"] = {{"relative", reference::to_decimal(r.error_bound)},
                        {"position", reference::to_decimal(r.position_bound)},
                        {"velocity", reference::to_decimal(r.velocity_bound)},
                        {"method", r.bound_method},
                        {"two_tolerance", reference::to_decimal(r.two_tolerance_bound)},
                        {"exact_error", r.exact_error ? nlohmann::ordered_json(reference::to_decimal(*r.exact_error))
                                                      : nlohmann::ordered_json(nullptr)}};
  out["states"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.times.size(); ++i) {
    nlohmann::ordered_json state;
    state["t"] = reference::to_decimal(r.times[i]);
    for (const auto& x : r.q[i]) state["q"].push_back(reference::to_decimal(x));
    for (const auto& x : r.v[i]) state["v"].push_back(reference::to_decimal(x));
    out["states"].push_back(state);
  }
  out["cached"] = r.from_cache;
  out["evaluations"] = r.evaluations;
  std::cout << out.dump(2) << "\n";
  return EXIT_SUCCESS;
}

}  // namespace

Command add_reference(CLI::App& app) {
  auto a = std::make_shared<ReferenceArgs>();
  auto* cmd = app.add_subcommand("reference",
                                 "print the high-precision reference state of a problem at given times, as JSON with "
                                 "every float128 digit, and its certified error bound");
  cmd->add_option("problem", a->problem, "problem id (see study list)")->required();
  cmd->add_option("--param,-p", a->params, "parameter as name=value (repeatable), e.g. --param e=0.9");
  cmd->add_option("--at", a->at, "comma-separated times >= 0, increasing, e.g. --at 1,2.5,10")->required();
  cmd->add_option("--tol", a->tolerance, "Bulirsch-Stoer tolerance of the reference solve (default 1e-28)");
  cmd->add_option("--cache-dir", a->cache_dir, "cache directory (default $STUDY_CACHE_DIR, else $XDG_CACHE_HOME/ode-study/reference, else ~/.cache/ode-study/reference)");
  cmd->add_flag("--no-cache", a->no_cache, "neither read nor write the cache");
  add_limit_options(cmd, a->limits, false);
  cmd->footer("The bound is max(2|x(tol) - x(tol/100)| + 100 eps evaluations, |x - exact|) relative to the "
              "largest |q| and |v| on the requested samples; the exact term only where the problem has an exact solution.");
  return {cmd, [a, cmd] {
            a->cache_dir_given = cmd->count("--cache-dir") > 0;
            return run_reference(*a);
          },
          "nothing was cached"};
}

}  // namespace study::cli
