// The 50-digit solve (reference/wide.hpp): Odeint in cpp_bin_float_50.
#include "reference/wide.hpp"

#include "reference/reference.hpp"
#include "reference/solve.hpp"
#include "study/problems/all.hpp"

namespace reference {

WideSolution solve_wide(const std::string& problem, const study::ParamValues& params, const std::vector<Real>& times,
                        const std::string& tolerance, const std::optional<std::pair<std::vector<Real>, std::vector<Real>>>& initial) {
  using Wide = boost::multiprecision::cpp_bin_float_50;
  WideSolution out;
  std::vector<Wide> wide_times;
  for (const Real& t : times) wide_times.emplace_back(to_decimal(t));  // 36 digits: within 1e-36 of the float128 time
  study::with_problem<Wide>(problem, params, [&](const auto& p) {
    try {
      auto start = p.initial();
      if (initial)
        for (std::size_t i = 0; i < start.q.size(); ++i)
          start.q[i] = Wide(to_decimal(initial->first.at(i))), start.v[i] = Wide(to_decimal(initial->second.at(i)));
      const auto s = detail::solve(p, start, wide_times, Wide(tolerance), 100'000'000);
      for (std::size_t k = 0; k < s.q.size(); ++k) {
        std::vector<Real> q, v;
        for (const Wide& x : s.q[k]) q.push_back(from_decimal(x.str(40, std::ios_base::scientific)));
        for (const Wide& x : s.v[k]) v.push_back(from_decimal(x.str(40, std::ios_base::scientific)));
        out.q.push_back(std::move(q)), out.v.push_back(std::move(v));
      }
      out.evaluations = s.evaluations;
    } catch (const detail::SolveFailure& f) {
      throw ReferenceError("the 50-digit solve of " + problem + " failed at t = " + std::to_string(static_cast<double>(f.t_reached)) +
                           ": " + f.what());
    }
  });
  return out;
}

}  // namespace reference
