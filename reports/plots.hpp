#pragma once
/// The report's plots: each writes NAME.dat (the data, sampled) and NAME.gp (a gnuplot script that draws
/// NAME.svg and NAME.png), so that a user can restyle any plot by editing its script (internal to reports/).

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "reports/model.hpp"

namespace report {

struct Plot {
  std::string name, title;
};

/// Error of `metric` (global, max or local) against dt, log-log, with reference slopes and fitted orders.
Plot convergence_plot(const Study& s, const std::string& metric, const std::filesystem::path& dir);
/// Relative energy error against time (linear axes) of every integrator at the study's plot_dt.
std::optional<Plot> energy_time_plot(const Results& res, const Study& s, const std::filesystem::path& dir);
/// |relative energy error| of the long run against time, log-log: bounded (slope 0), random walk (1/2), drift (1).
std::optional<Plot> energy_long_plot(const Results& res, const Study& s, const std::filesystem::path& dir);
/// Trajectories at plot_dt: Earth-Moon distance (earth-moon), orbits (central-force), phase portrait (pendulum).
std::optional<Plot> trajectory_plot(const Results& res, const Study& s, const std::filesystem::path& dir);
/// Global error against force evaluations and against wall time.
std::optional<Plot> work_precision_plot(const Study& s, const std::filesystem::path& dir);
/// Measured largest stable omega h against the theoretical value.
std::optional<Plot> stability_plot(const Study& s, const std::filesystem::path& dir);

/// How gnuplot is run: the program (a name on PATH or a path; no shell), a time limit per plot, and the flag
/// that stops it (Ctrl-C).
struct Gnuplot {
  std::string program = "gnuplot";
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  const std::atomic<bool>* cancel = nullptr;
};

/// Why gnuplot cannot be run ("" when `gnuplot --version` works).
std::string gnuplot_problem(const Gnuplot& g);
/// Runs a plot's script in `dir`; moves its SVG and PNG into place on success, else sets `error` (gnuplot's
/// exit status and last line of standard error, or its time-out).  Throws Interrupted when cancelled.
bool draw(const Gnuplot& g, const std::filesystem::path& dir, const std::string& name, std::string& error);

}  // namespace report
