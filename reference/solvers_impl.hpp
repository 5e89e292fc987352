#pragma once
/// The float128 solves of one problem type: included by solvers.cpp (the Odeint translation unit of the shipped
/// problems) and by study/extend/problem.hpp (a problem of the user's, compiled in the user's program).
#include <cstdio>
#include <future>
#include <sstream>

#include "reference/reference.hpp"
#include "reference/solve.hpp"
#include "reference/solvers.hpp"

namespace reference::detail {


template <class P>
typename P::State start_of(const P& p, const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial,
                           const std::string& problem) {
  auto s = p.initial();
  if (initial) {
    if (initial->first.size() != P::dim || initial->second.size() != P::dim)
      throw std::invalid_argument(problem + ": the initial state needs " + std::to_string(P::dim) +
                                  " positions and velocities");
    for (std::size_t i = 0; i < P::dim; ++i) s.q[i] = initial->first[i], s.v[i] = initial->second[i];
  }
  return s;
}

template <class P>
void describe_into(const P& p, const study::ParamValues& values, Solved& out,
                   const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial, const std::string& problem) {
  for (const auto& info : P::params) {
    const auto it = values.find(info.name);
    const std::string text = it != values.end() ? it->second : std::string(info.default_value);
    out.params.emplace_back(std::string(info.name), to_decimal(from_decimal(text)));
  }
  out.time_scale = p.period() / boost::math::constants::two_pi<Real>();
  const auto s = start_of(p, initial, problem);
  out.q0.assign(s.q.begin(), s.q.end());
  out.v0.assign(s.v.begin(), s.v.end());
}

inline std::string describe_params(const Solved& s) {
  std::ostringstream o;
  for (const auto& [k, v] : s.params) o << (o.tellp() ? ", " : "") << k << " = " << static_cast<double>(from_decimal(v));
  return o.str();
}

/// A tolerance for a message: "1e-28", not its 36 digits (nor their first 8 without the exponent).
inline std::string tolerance_text(const Real& t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(t));
  return buf;
}

/// The reference and certifying solves of p (see solve_twice in solvers.hpp).
template <class P>
Solved solve_twice_of(const P& p, const std::string& problem, const study::ParamValues& params,
                      const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial,
                      const std::vector<Real>& times, Real tol, Real check_tol, std::uint64_t max_steps, const WorkBudget& budget, bool concurrent) {
  Solved out;
  describe_into(p, params, out, initial, problem);
  const auto start = start_of(p, initial, problem);
  auto run = [&](Real t, const char* which) {
    try {
      return solve(p, start, times, t, max_steps, budget);
    } catch (const SolveFailure& f) {
      throw ReferenceError("reference for " + problem + " (" + describe_params(out) + ") failed in the " + which +
                           " solve (tolerance " + tolerance_text(t) + ") at t = " +
                           std::to_string(static_cast<double>(f.t_reached)) + " of " +
                           std::to_string(static_cast<double>(times.back())) + ": " + f.what());
    }
  };
  // The two solves are independent: the certifying one runs on a second thread (the reference of a long
  // study is the one task that would otherwise keep a core idle at the end of the references).
  auto check_future = std::async(concurrent ? std::launch::async : std::launch::deferred,
                                 [&] { return run(check_tol, "certifying"); });
  Solution ref;
  try {
    ref = run(tol, "reference");
  } catch (...) {
    check_future.wait();  // the other solve uses this frame's data
    throw;
  }
  const Solution check = check_future.get();
  out.q = ref.q, out.v = ref.v, out.check_q = check.q, out.check_v = check.v, out.evaluations = ref.evaluations;
  if constexpr (P::has_exact) {
    // The exact solution belongs to the problem's own start: a study's (its double rounding) is the same state
    // whenever the start is a double, and then the reference is checked against it too.
    const auto own = p.initial();
    bool own_start = true;
    for (std::size_t i = 0; i < P::dim; ++i) own_start = own_start && start.q[i] == own.q[i] && start.v[i] == own.v[i];
    if (own_start) {
      out.exact_q.emplace(), out.exact_v.emplace();
      for (const Real& t : times) {
        const auto e = p.exact(t);
        out.exact_q->emplace_back(e.q.begin(), e.q.end());
        out.exact_v->emplace_back(e.v.begin(), e.v.end());
      }
    }
  }
  return out;
}

}  // namespace reference::detail
