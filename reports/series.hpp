#pragma once
/// The lines of a plot and the panels they go into (internal to reports/): a line per method, or one line for methods
/// whose error curves coincide within their measured round-off (the same method twice, such as leapfrog and a user's
/// position Verlet); at most `max_series` lines per panel, panels by family (explicit Runge-Kutta, splitting and
/// composition, implicit, the program's own) and, within a family too large for one panel, by order.

#include <string>
#include <vector>

#include "study/reader/model.hpp"

namespace report {

/// At most this many lines with a legend entry in one panel (a panel may add one line of its own: the Pareto front,
/// the most accurate run).
inline constexpr std::size_t max_series = 7;

/// One line of a plot.
struct Series {
  std::vector<std::string> members;  ///< integrator labels, in spec order; the line has every member's steps (the first's where both ran)
  std::string family;                ///< explicit-rk, splitting, implicit, own
  int order = 0;                     ///< the first member's expected global order
  std::size_t colour = 0;            ///< the first member's position in the spec: its colour in every plot
  /// "leapfrog = position-verlet"
  std::string label() const;
};

/// A panel of a plot.
struct Panel {
  std::string title;  ///< its family, and the orders it holds when the family is split ("splitting and composition, order 1-2")
  std::vector<Series> series;
};

/// The family's name as a reader sees it: "explicit Runge-Kutta", "splitting and composition", "implicit",
/// "this program's own".
std::string family_name(const std::string& family);

/// The study's integrators as lines; with `merge`, those whose global errors coincide at every step size both ran
/// (at least two, and all of each one's down to where the one that stopped first stopped at its noise floor or as
/// dt = "auto" chose; within 10 times the sum of the two runs' measured round-off, or 100 eps per step
/// where it was not measured) and, with `same_cost`, whose force evaluations are equal too, become one line.
std::vector<Series> series_of(const Study& s, bool merge, bool same_cost = true);

/// series_of, then the adaptive pairs as lines of their own family ("adaptive"), after the fixed-step methods: the
/// lines of the plots of costs, where a pair has a curve like any method.
std::vector<Series> work_series_of(const Study& s, bool merge, bool same_cost = true);

/// The lines in panels: by family (in the order above), a family of more than `max` split by order into panels
/// of nearly equal size.
std::vector<Panel> panels_of(const std::vector<Series>& series, std::size_t max = max_series);

}  // namespace report
