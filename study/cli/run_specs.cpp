// The specs of `study run`: spec files or shipped names, standard input, a study from the command line, a profile,
// or the default study; a user's --methods files.  Every error is found here, and the cost bounded, before any work.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <optional>
#include <sstream>

#include <fmt/core.h>
#include <toml++/toml.h>

#include "study/cli/options.hpp"
#include "study/reader/model.hpp"
#include "study/cli/run.hpp"
#include "study/common/bytes.hpp"
#include "study/common/input_file.hpp"
#include "study/common/printable.hpp"
#include "study/common/suggest.hpp"
#include "study/methods/library.hpp"
#include "study/registry/extensions.hpp"
#include "study/measure/adaptive.hpp"

namespace study::cli {
namespace {

/// A spec argument: a path, a folder (its *.toml files), or the name of a shipped spec or scan ("kepler" for
/// study/specs/kepler.toml, "kepler-eccentricity" for study/scans/kepler-eccentricity.toml).
std::vector<std::filesystem::path> resolve_spec(const std::string& arg) {
  if (std::filesystem::is_directory(arg)) {
    auto files = study::spec_files_in(arg);
    if (files.empty()) throw study::SpecError(arg + ": a folder with no spec file (*.toml) in it");
    return files;
  }
  if (std::filesystem::exists(arg)) return {arg};
  std::vector<std::string> names;
  for (const auto& shipped : {study::shipped_specs(), study::shipped_scans()})
    for (const auto& f : shipped) {
      if (f.stem() == arg) return {f};
      names.push_back(f.stem().string());
    }
  throw study::SpecError(arg + ": no such spec file, and no shipped spec or scan of that name" + study::did_you_mean(arg, names) +
                         "; shipped: " + study::join(names));
}

/// A spec from --problem, --integrators, --t-end, --dt (and --param, --metrics, --name), validated like a file.
study::Spec command_line_spec(const RunArgs& a, const study::tables::Library& methods) {
  auto missing = [](const char* option, const char* what) {
    throw study::SpecError(std::string("a study from the command line needs ") + option + " (" + what + ")");
  };
  if (a.integrators.empty()) missing("--integrators", "comma-separated ids, e.g. rk4,ruth3");
  if (a.t_end.empty()) missing("--t-end", "the final time, e.g. 7.3");
  if (a.dt.empty()) missing("--dt", "auto, or comma-separated step sizes");
  auto number = [](const std::string& option, const std::string& text) {
    double x = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec == std::errc::result_out_of_range && end == text.data() + text.size())
      throw study::SpecError(option + " " + text + ": out of range: a double holds magnitudes from 2.2e-308 to 1.8e308" +
                             (option == "--t-end" ? fmt::format(", and t_end must lie within {:g} time scales of the problem",
                                                                study::max_time_scales)
                                                  : std::string()));
    if (ec != std::errc{} || end != text.data() + text.size())
      throw study::SpecError(option + " " + text + ": not a number");
    return x;
  };
  toml::table t;
  // The name defaults to the problem's id: an unknown problem is named as such, not as a bad name.
  const auto ids = study::all_problem_ids();
  if (std::find(ids.begin(), ids.end(), a.problem) == ids.end())
    throw study::SpecError("--problem " + study::printable(a.problem) + ": unknown problem" + study::did_you_mean(a.problem, ids) +
                           "; problems: " + study::join(ids));
  t.insert("name", a.name.empty() ? a.problem : a.name);
  t.insert("problem", a.problem);
  toml::table params;
  for (const auto& [k, v] : param_pairs(a.params)) params.insert(k, v);  // decimal strings: the spec reads them exactly
  if (!params.empty()) t.insert("params", std::move(params));
  t.insert("t_end", number("--t-end", a.t_end));
  toml::array ints;
  for (const auto& id : split_list(a.integrators, "--integrators")) ints.push_back(id);
  t.insert("integrators", std::move(ints));
  if (a.dt == "auto") {
    t.insert("dt", "auto");
  } else {
    toml::array dts;
    for (const auto& x : split_list(a.dt, "--dt")) dts.push_back(number("--dt", x));
    t.insert("dt", std::move(dts));
  }
  if (!a.metrics.empty()) {
    toml::array ms;
    for (const auto& m : split_list(a.metrics, "--metrics")) ms.push_back(m);
    t.insert("metrics", std::move(ms));
  }
  std::ostringstream text;
  text << t;
  try {
    return study::parse_spec(text.str(), "command line", &methods);
  } catch (const study::SpecError& e) {
    // "command line:4: dt: ..." -> "command line: dt: ...": the lines of the generated text mean nothing to the user.
    std::string m = e.what();
    if (m.rfind("command line:", 0) == 0) {
      const auto colon = m.find(':', 13);
      if (colon != std::string::npos && m.find_first_not_of("0123456789", 13) == colon) m.erase(12, colon - 12);
    }
    throw study::SpecError(m);
  }
}

/// A spec file's studies (a scan: one per point) after the others.
void append(std::vector<Spec>& specs, std::vector<Spec> more) {
  specs.insert(specs.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

}  // namespace

std::vector<Spec> specs_to_run(const RunArgs& a) {
  std::vector<Spec> specs;
  const study::tables::Library methods = study::tables::read_user_methods(a.methods, study::spec_keys());
  const bool from_options = !a.problem.empty() || !a.integrators.empty() || !a.t_end.empty() || !a.dt.empty() ||
                            !a.params.empty() || !a.metrics.empty() || !a.name.empty();
  if (from_options) {
    if (a.problem.empty())
      throw study::SpecError("--integrators, --t-end, --dt, --param, --metrics and --name make a study from the command line, "
                             "which needs --problem (see study list --problems); a spec file sets them itself");
    if (!a.specs.empty() || !a.profile.empty())
      throw study::SpecError("give --problem (a study from the command line) or spec files or --profile, not both");
    specs.push_back(command_line_spec(a, methods));
  } else if (!a.profile.empty()) {
    if (!a.specs.empty()) throw study::SpecError("give spec files or --profile, not both");
    for (const auto& f : study::profile_specs(a.profile)) append(specs, study::load_specs(f, &methods));
  } else if (a.specs.empty()) {
    for (const auto& f : study::shipped_specs()) append(specs, study::load_specs(f, &methods));
  } else {
    for (const auto& arg : a.specs) {
      if (arg == "-") {  // a spec on standard input
        const std::optional<std::string> text = study::read_stdin_at_most();
        if (!text) throw study::SpecError("<stdin>: more than a spec file may hold (" + study::input_limit_text() + ")");
        append(specs, study::parse_specs(*text, "<stdin>", &methods));
      } else {
        for (const auto& f : resolve_spec(arg)) append(specs, study::load_specs(f, &methods));
      }
    }
  }
  // --accuracy: asked of every study, as its `accuracy` key (automatic sweeps run on until each method passes it).
  for (auto& spec : specs) spec.accuracy.insert(spec.accuracy.end(), a.accuracy.begin(), a.accuracy.end());
  // --vs: every study that has the method measures the others against it, as its `vs` key; one at least must.
  if (!a.vs.empty()) {
    std::string whys;
    bool any = false;
    for (auto& spec : specs) {
      std::string why;
      if (const std::string label = study::versus_method(spec, a.vs, why); !label.empty()) spec.vs = label, any = true;
      else whys += (whys.empty() ? "" : "; ") + spec.name + ": '" + study::printable(a.vs) + "' " + why;
    }
    if (!any) throw study::SpecError("--vs " + study::printable(a.vs) + ": in no study: " + whys);
  }
  if (specs.empty())  // an empty profile folder: results with no study would be refused by every reader
    throw study::SpecError(a.profile.empty() ? std::string("no spec to run: the shipped specs folder holds none")
                                             : "--profile " + a.profile + ": the profile holds no spec (*.toml) to run");
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      if (specs[i].name == specs[j].name)
        throw study::SpecError(specs[i].file.string() + ": name '" + specs[i].name + "' is also the name of " + specs[j].file.string());
      // A scan's page is named after the scan: two scans of one name, from two specs, would share it.
      if (!specs[i].scan.scan.empty() && specs[i].scan.scan == specs[j].scan.scan && specs[i].file != specs[j].file)
        throw study::SpecError(specs[i].file.string() + ": name '" + specs[i].scan.scan + "' is also the name of the scan in " +
                               specs[j].file.string() + " (each scan's page is named after it)");
    }

  // The cost, before anything runs: a request that would compute for hours, or hold more than the memory allowed,
  // is refused, naming its biggest part.
  // Memory first, then work: each message then says the one limit that refuses.
  double held = 0, text = 0;
  std::size_t runs = 0;
  std::vector<study::CostEstimate> costs;
  // An adaptive pair's work scales from a pilot run at its loosest tolerance (a few milliseconds): not from tol.max_steps.
  for (auto& spec : specs) study::engine::adaptive_pilots(spec);
  for (const auto& spec : specs) {
    costs.push_back(study::estimate_cost(spec));
    held += costs.back().held_bytes, text = std::max(text, costs.back().text_bytes), runs += costs.back().runs;
  }
  // samples.csv is built in memory and then written (twice its text); the report then reads it back beside the
  // results still held (report::parsed_bytes_per_byte its text).
  const double text_factor = a.no_report ? 2 : report::parsed_bytes_per_byte;
  if (held + text_factor * text > a.limits.memory)
    throw study::SpecError(fmt::format(
        "{} would hold about {} in memory ({} runs' samples with their reference states: {}; the largest samples.csv: {}, "
        "counted {} times: {}), "
        "above the limit of {}; keep fewer samples (samples = 64 is the default), run fewer step sizes or studies at once, "
        "or raise the limit with --max-memory",
        specs.size() == 1 ? specs.front().file.string() + ": this study" : fmt::format("these {} studies", specs.size()),
        study::bytes_text(held + text_factor * text), runs, study::bytes_text(held), study::bytes_text(text), text_factor,
        a.no_report ? "built and written" : "built, written and read back by the report (--no-report: 2 times)",
        study::bytes_text(a.limits.memory)));
  double total = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    total += costs[i].evaluations;
    // The wide runs' part is a bound, spent only where round-off leaves an order undecided: say what lowers it.
    const bool wide = costs[i].biggest.find("in wider arithmetic") != std::string::npos;
    check_work(costs[i].evaluations, a.limits,
               specs[i].file.string() + (specs[i].scan.scan.empty() ? ": this study" : ": its study " + specs[i].name), "most of it: " + costs[i].biggest +
               (wide ? "; that is a bound, spent only where double's round-off leaves an order undecided: give the spec a "
                       "smaller wide_budget (0: none), use larger step sizes or a shorter t_end"
                : !costs[i].advice.empty() ? "; give it " + costs[i].advice
                                           : "; use larger step sizes or a shorter t_end"));
  }
  check_work(total, a.limits, fmt::format("these {} studies together", specs.size()), "run fewer at once");

  return specs;
}

}  // namespace study::cli
