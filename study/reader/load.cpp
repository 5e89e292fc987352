#include <algorithm>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <istream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "study/reader/model.hpp"
#include "study/common/bytes.hpp"
#include "study/common/input_file.hpp"
#include "study/common/names.hpp"
#include "study/common/schema.hpp"

namespace report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

/// The largest count a results file may hold (2^53: every whole number up to it is a double).
constexpr long max_count = 9007199254740992L;

/// A JSON value with the path that reached it, so that a malformed file is reported field by field.  The path is
/// spelled out only for a message (a child keeps a pointer to its parent: a named Node must be taken from a named
/// parent, never from a temporary one), which keeps loading cheap.
class Node {
 public:
  Node(const Json& j, std::string root, const fs::path& file) : j_(j), name_(std::move(root)), file_(file) {}

  bool has(const std::string& key) const { return j_.is_object() && j_.contains(key); }
  bool is_null() const { return j_.is_null(); }
  bool is_string() const { return j_.is_string(); }
  Node at(const std::string& key) const {
    const auto it = j_.is_object() ? j_.find(key) : j_.end();
    if (it == j_.end()) fail("missing '" + key + "'");
    return {*it, this, key, no_index, file_};
  }
  Node at(std::size_t i) const {
    if (i >= size()) fail("has no element " + std::to_string(i));
    return {j_[i], this, std::string(), i, file_};
  }
  /// "results.studies[0].runs[3]".
  std::string path() const {
    if (!parent_) return name_;
    std::string p = parent_->path();  // appended piecewise: GCC 12's false -Wrestrict (bug 105329) on "." + std::string
    if (index_ == no_index) p += '.', p += name_;
    else p += '[', p += std::to_string(index_), p += ']';
    return p;
  }
  std::size_t size() const {
    if (!j_.is_array()) fail("must be an array");
    return j_.size();
  }
  /// The number under `key`, NaN when the key is absent (results written before the field existed) or null.
  double number_or_nan(const std::string& key) const { return has(key) ? at(key).number() : std::nan(""); }
  double number() const {  // null: not measured
    if (j_.is_null()) return std::nan("");
    if (!j_.is_number()) fail("must be a number or null");
    return j_.get<double>();
  }
  /// A whole number in [lo, hi] (a count, an order, a step number); anything else is an error naming the field,
  /// never a cast of an out-of-range double.
  long whole(long lo, long hi) const {
    // An integer is compared as written: 2^53 + 1 would round to 2^53 as a double, and pass.
    if (j_.is_number_integer()) {
      // nlohmann keeps every non-negative integer as unsigned: both ends are checked either way.
      const bool fits = j_.is_number_unsigned()
                            ? (lo <= 0 || j_.get<std::uint64_t>() >= static_cast<std::uint64_t>(lo)) &&
                                  j_.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi)
                            : j_.get<std::int64_t>() >= lo && j_.get<std::int64_t>() <= hi;
      if (!fits) fail(fmt::format("must be a whole number from {} to {}", lo, hi));
      return static_cast<long>(j_.get<std::int64_t>());
    }
    const double x = number();
    if (!(x >= static_cast<double>(lo) && x <= static_cast<double>(hi)) || x != std::floor(x))
      fail(fmt::format("must be a whole number from {} to {}", lo, hi));
    return static_cast<long>(x);
  }
  /// The keys of an object.
  std::vector<std::string> keys() const {
    if (!j_.is_object()) fail("must be an object");
    std::vector<std::string> k;
    for (const auto& item : j_.items()) k.push_back(item.key());
    return k;
  }
  /// A number > 0: a step, a time, a scale, a period (never null: each is always written).
  double positive() const {
    const double x = number();
    if (!(x > 0)) fail("must be a number > 0");
    return x;
  }
  /// A number >= 0, or null (not measured): an error, a time, a count of evaluations.
  double nonnegative() const {
    const double x = number();
    if (x < 0) fail("must be a number >= 0 or null");
    return x;
  }
  /// The string, which must be one of `allowed` (a status, a verdict: what the readers branch on).
  std::string one_of(std::initializer_list<const char*> allowed) const {
    std::string s = text(), list;
    for (const char* a : allowed) {
      if (s == a) return s;
      list += list.empty() ? "" : ", ", list += a;
    }
    fail("'" + study::printable(s) + "' is not one of " + list);
  }
  bool boolean() const {
    if (!j_.is_boolean()) fail("must be true or false");
    return j_.get<bool>();
  }
  /// The string, control characters made spaces: no text from a results file can break a line of the report, a
  /// table row or a script.
  /// A string of at most `limit` bytes (what study writes is shorter: its longest, an order's advice, is under
  /// 400), so that a hand-edited megabyte cannot become a report of megabytes.
  std::string text(std::size_t limit = 4096) const {
    if (!j_.is_string()) fail("must be a string");
    if (const std::size_t size = j_.get_ref<const std::string&>().size(); size > limit)
      fail(fmt::format("is {} bytes long; at most {} (edited by hand?)", size, limit));
    std::string s = j_.get<std::string>();
    for (char& c : s)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
    return s;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw ReportError(file_.string() + ": " + path() + ": " + what);
  }

 private:
  static constexpr std::size_t no_index = static_cast<std::size_t>(-1);
  Node(const Json& j, const Node* parent, std::string key, std::size_t index, const fs::path& file)
      : j_(j), parent_(parent), name_(std::move(key)), index_(index), file_(file) {}

  const Json& j_;
  const Node* parent_ = nullptr;
  std::string name_;  ///< the root's name, or this value's key in its parent object
  std::size_t index_ = no_index;  ///< this value's index in its parent array
  const fs::path& file_;
};

/// A results file that exists must be a regular file: a FIFO or a device would block the read or never end.
void require_regular(const fs::path& file) {
  if (const auto kind = study::file_kind(file); kind == study::FileKind::folder)
    throw ReportError(file.string() + ": is a folder, not a results file");
  else if (kind == study::FileKind::special)
    throw ReportError(study::not_regular(file));
}

/// The document in an open JSON file; ReportError naming the file when it does not parse.
Json parse(std::ifstream& in, const fs::path& file) {
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {  // a syntax error, or a number out of double's range (1e999)
    throw ReportError(file.string() + ": not valid JSON (" + e.what() + ")");
  }
}

/// A fit's points are copies of its runs' errors, one per run of the integrator in the order of `runs` (the gate fits
/// them, the report draws the runs): a file where the two copies disagree -- edited in one place -- is refused,
/// naming both fields, rather than giving a gate and a report that disagree.
void agree_with_runs(const Study& st, const OrderRow& o, const Node& pts) {
  std::vector<std::size_t> runs;
  for (std::size_t k = 0; k < st.runs.size(); ++k)
    if (st.runs[k].integrator == o.integrator) runs.push_back(k);
  if (runs.size() != o.sweep.size())
    pts.fail(fmt::format("holds {} point(s), but the study has {} run(s) of '{}': each point is a copy of one run's error; "
                         "the fits and the runs disagree (was the file edited in one place?)",
                         o.sweep.size(), runs.size(), study::printable(o.integrator)));
  for (std::size_t q = 0; q < runs.size(); ++q) {
    const RunRow& r = st.runs[runs[q]];
    if (o.metric != "global" && o.metric != "max" && o.metric != "local")
      pts.fail("belong to metric '" + study::printable(o.metric) + "', which is not a run's error (global, max or local)");
    const double error = o.metric == "global" ? r.global : o.metric == "max" ? r.max : r.local;
    const auto& p = o.sweep[q];
    const bool same_error = p[1] == error || (std::isnan(p[1]) && std::isnan(error));
    if (p[0] != r.dt || !same_error)
      pts.at(q).fail(fmt::format("(dt {}, error {}) disagrees with runs[{}] (dt {}, error.{} {}): each point is a copy of "
                                 "one run's error (was the file edited in one place?)",
                                 num17(p[0]), num17(p[1]), runs[q], num17(r.dt), o.metric, num17(error)));
  }
}

/// A wide arithmetic's points are copies of that arithmetic's wide runs of the integrator, in their order, with their
/// noise floors: a file where the copies disagree is refused, as agree_with_runs does for double's.
void agree_with_wide_runs(const Study& st, const OrderRow& o, const std::string& arithmetic, const Node& pts) {
  std::vector<std::size_t> runs;
  for (std::size_t k = 0; k < st.wide_runs.size(); ++k)
    if (st.wide_runs[k].integrator == o.integrator && st.wide_runs[k].arithmetic == arithmetic && st.wide_runs[k].status != "unsupported")
      runs.push_back(k);
  if (runs.size() != pts.size())
    pts.fail(fmt::format("holds {} point(s), but the study has {} {} run(s) of '{}' (wide_runs): each point is a copy of one run's "
                         "error (was the file edited in one place?)", pts.size(), runs.size(), arithmetic, study::printable(o.integrator)));
  for (std::size_t q = 0; q < runs.size(); ++q) {
    const WideRunRow& r = st.wide_runs[runs[q]];
    const bool ok = r.status == "ok";
    const double error = !ok ? NAN : o.metric == "global" ? r.global : o.metric == "max" ? r.max : r.local;
    const double floor = o.metric == "global" ? r.floor_global : o.metric == "max" ? r.floor_max : r.floor_local;
    const double dt = pts.at(q).at(0).number(), e = pts.at(q).at(1).number(), f = pts.at(q).at(2).number();
    auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    if (dt != r.dt || !same(e, error) || !same(f, floor))
      pts.at(q).fail(fmt::format("(dt {}, error {}, floor {}) disagrees with wide_runs[{}] (dt {}, error.{} {}, floor.{} {}): each point is "
                                 "a copy of one run's (was the file edited in one place?)",
                                 num17(dt), num17(e), num17(f), runs[q], num17(r.dt), o.metric, num17(error), o.metric, num17(floor)));
  }
}

/// The largest table of a results folder's studies (what the report holds beside the results): its size, and its
/// file in `file` when it is larger than `largest` already.
double largest_table(const fs::path& dir, double largest, fs::path& file) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_directory(ec)) continue;  // a study folder linked from elsewhere is read like one in place
    for (const char* name : {"runs.csv", "samples.csv", "energy_long.csv", "orders.csv", "stability.csv"}) {
      const fs::path table = it->path() / name;
      const auto size = fs::is_regular_file(table, ec) ? fs::file_size(table, ec) : 0;
      if (!ec && static_cast<double>(size) > largest) largest = static_cast<double>(size), file = table;
    }
  }
  return largest;
}

/// Refuses, before anything is parsed, a folder whose results.json and largest table would take more than
/// `max_memory` bytes at once (the report holds one table at a time beside the results).
void check_memory(const fs::path& dir, const fs::path& file, double max_memory) {
  std::error_code ec;
  const double json = static_cast<double>(fs::file_size(file, ec));
  if (ec) return;  // the reader says what is wrong with it
  fs::path largest_file;
  const double largest = largest_table(dir, 0, largest_file);
  const double need = parsed_bytes_per_byte * (json + largest);
  if (need > max_memory)
    throw ReportError(fmt::format("{}: reading these results would take about {} of memory (results.json {}{}, each held as "
                                  "about {:g} times its size once parsed), above the limit of {}; raise it with --max-memory",
                                  dir.string(), study::bytes_text(need), study::bytes_text(json),
                                  largest_file.empty() ? std::string()
                                                       : fmt::format(" and its largest table, {}, {}", largest_file.string(),
                                                                     study::bytes_text(largest)),
                                  parsed_bytes_per_byte, study::bytes_text(max_memory)));
}

}  // namespace

void check_memory_together(const std::vector<fs::path>& dirs, double max_memory) {
  // Each folder's results.json is held parsed at once; the tables one at a time.
  double json = 0, largest = 0;
  std::string what;
  fs::path largest_file;
  for (const auto& dir : dirs) {
    std::error_code ec;
    const fs::path file = dir / "results.json";
    const double size = static_cast<double>(fs::file_size(file, ec));
    if (ec) continue;  // the reader says what is wrong with it
    json += size;
    what += fmt::format("{}{} {}", what.empty() ? "" : ", ", file.string(), study::bytes_text(size));
    largest = largest_table(dir, largest, largest_file);
  }
  const double need = parsed_bytes_per_byte * (json + largest);
  if (need > max_memory)
    throw ReportError(fmt::format("reading these {} results folders together would take about {} of memory ({}{}, each held as "
                                  "about {:g} times its size once parsed), above the limit of {}; raise it with --max-memory",
                                  dirs.size(), study::bytes_text(need), what,
                                  largest_file.empty() ? std::string()
                                                       : fmt::format(", and the largest table, {}, {}", largest_file.string(),
                                                                     study::bytes_text(largest)),
                                  parsed_bytes_per_byte, study::bytes_text(max_memory)));
}

Results load(const fs::path& dir, double max_memory) {
  std::error_code ec;
  // Pointed inside a results folder (at results.json, a study's folder or one of its CSV files): name the folder
  // to give instead, the nearest one above that holds results.json.
  fs::path named = dir;
  if (named.filename().empty()) named = named.parent_path();  // "res/k/"
  fs::path results_dir, study_dir;
  {
    fs::path below = named;
    for (int up = 0; up < 2 && !below.empty(); ++up) {
      const std::string leaf = below.filename().string();
      if (leaf.empty() || leaf == "." || leaf == "..") break;
      const fs::path above = below.has_parent_path() ? below.parent_path() : fs::path(".");
      if (fs::is_regular_file(above / "results.json", ec)) {
        results_dir = above, study_dir = below;
        break;
      }
      below = above;
    }
  }
  const bool exists = fs::exists(dir, ec), is_file = exists && !fs::is_directory(dir, ec);
  const fs::path file = dir / "results.json";
  // A study's folder is named after a study of the results; another folder inside them (plots/, results of their
  // own not yet written) keeps the messages below.
  bool study_folder = false, unread = false;
  if (!results_dir.empty() && fs::is_directory(study_dir, ec)) {
    // Read for its study names within the same memory bound; above it, the message below goes without them.
    const auto size = fs::file_size(results_dir / "results.json", ec);
    unread = ec || parsed_bytes_per_byte * static_cast<double>(size) > max_memory;
    std::ifstream names;
    if (!unread) names.open(results_dir / "results.json");
    const Json doc = unread ? Json() : Json::parse(names, nullptr, false);
    if (doc.is_object() && doc.contains("studies") && doc["studies"].is_array())
      for (const auto& st : doc["studies"])
        study_folder = study_folder || (st.is_object() && st.contains("name") && st["name"] == study_dir.filename().string());
  }
  if (!results_dir.empty() && exists && (is_file || ((study_folder || unread) && !fs::exists(file, ec)))) {
    if (named.filename() == "results.json")
      throw ReportError(dir.string() + ": is the results file itself: give the folder that holds it, " + results_dir.string());
    throw ReportError(dir.string() + ": lies inside the results folder " + results_dir.string() + ", which holds results.json: give that folder" +
                      (study_folder ? " (study check " + results_dir.string() + " --study " + study_dir.filename().string() +
                                                             " judges that study alone)"
                                                       : ""));
  }
  if (is_file)
    throw ReportError(dir.string() + ": is a file, not a results folder (the folder study run --out wrote, holding results.json)");
  require_regular(file);
  std::ifstream in(file);
  if (!in) throw ReportError(file.string() + ": no results file (run `study run --out " + dir.string() + "` first)");
  check_memory(dir, file, max_memory);
  Results res = load_document(parse(in, file), file, dir);
  check_tables(res);
  return res;
}

/// Row r of a table beside results.json (`file`) against results.json's copy of it (`where`: "studies 'x', runs[3]"):
/// each check throws naming the file, the line, the column and both values.
struct RowCheck {
  const Table& t;
  const fs::path& file;
  std::size_t r;
  std::string where;
  [[noreturn]] void disagree(const std::string& column, const std::string& csv, const std::string& json) const {
    throw ReportError(fmt::format("{}:{}: {} is {}, but results.json has {} ({}): the table and the results disagree (edited by hand?); "
                                  "run the study again", file.string(), t.lines[r], column, csv, json, where));
  }
  void text(const std::string& column, const std::string& json) const {
    if (t.text(r, column) != json) disagree(column, t.text(r, column), json);
  }
  /// To every digit (NaN equals NaN); `shown` writes results.json's value in the message (default: 17 digits).
  void number(const std::string& column, double json, const std::string& shown = "") const {
    const double csv = t.number(r, column);
    if (!(csv == json || (std::isnan(csv) && std::isnan(json)))) disagree(column, t.text(r, column), shown.empty() ? num17(json) : shown);
  }
};

/// adaptive.csv holds the study's adaptive runs in order (results.json adaptive.runs): which run each row is, its
/// status, and the numbers the answers read (global error, accepted steps, force evaluations) to every digit.
void check_adaptive_table(const Results& res, const Study& s) {
  if (s.adaptive_runs.empty()) return;
  const fs::path file = res.dir / s.name / "adaptive.csv";
  const auto t = read_table(file);
  if (!t) return;  // missing: said by the caller
  if (t->rows.size() != s.adaptive_runs.size())
    throw ReportError(fmt::format("{}: {} runs, but results.json has {} adaptive runs for {}: the table and the results disagree",
                                  file.string(), t->rows.size(), s.adaptive_runs.size(), s.name));
  for (std::size_t r = 0; r < t->rows.size(); ++r) {
    const AdaptiveRow& run = s.adaptive_runs[r];
    const RowCheck row{*t, file, r, fmt::format("studies '{}', adaptive.runs[{}]", s.name, r)};
    row.text("integrator", run.integrator), row.text("status", run.status);
    row.number("tol", run.tol), row.number("global", run.global);
    row.number("accepted", static_cast<double>(run.accepted), std::to_string(run.accepted));
    row.number("force_evals", run.force_evals);
  }
}

void check_tables(const Results& res) {
  for (const Study& s : res.studies) {
    // What study run writes for a study: runs.csv and samples.csv when it has runs, energy_long.csv when it has
    // long energy runs.  One missing is a folder copied in part or edited: the report would draw less, silently.
    auto missing = [&](const char* table, std::size_t count, const char* what) {
      const fs::path path = res.dir / s.name / table;
      std::error_code ec;
      if (count == 0 || fs::exists(path, ec)) return;  // a dangling link is missing; a folder or FIFO is refused as read
      throw ReportError(fmt::format("{}: missing, but results.json has {} {} for study '{}': the results folder is "
                                    "incomplete (copied in part, or a file deleted); run the study again",
                                    path.string(), count, what, s.name));
    };
    missing("runs.csv", s.runs.size(), "runs");
    missing("samples.csv", s.runs.size(), "runs (their samples)");
    missing("energy_long.csv", s.energy_long.size(), "long energy runs");
    missing("adaptive.csv", s.adaptive_runs.size(), "adaptive runs");
    missing("adaptive_samples.csv", s.adaptive_samples ? s.adaptive_runs.size() : 0, "adaptive runs (their samples)");
    check_adaptive_table(res, s);
    if (s.runs.empty()) continue;
    const fs::path runs_csv = res.dir / s.name / "runs.csv";  // samples.csv's rows are checked as they are read (all_samples)
    const auto t = read_table(runs_csv);
    if (!t) continue;  // not there: said above
    if (t->rows.size() != s.runs.size())
      throw ReportError(fmt::format("{}: {} runs, but results.json has {} for {}: the table and the results disagree", runs_csv.string(),
                                    t->rows.size(), s.runs.size(), s.name));
    // Row r is runs[r] (both written in one order): what says which run it is, and its global error, to every digit.
    for (std::size_t r = 0; r < t->rows.size(); ++r) {
      const RunRow& run = s.runs[r];
      const RowCheck row{*t, runs_csv, r, fmt::format("studies '{}', runs[{}]", s.name, r)};
      row.text("integrator", run.integrator), row.text("status", run.status);
      row.number("dt", run.dt), row.number("steps", static_cast<double>(run.steps), std::to_string(run.steps));
      row.number("global", run.global);
    }
  }
}

Results load_document(const nlohmann::json& doc, const fs::path& file, const fs::path& dir) {
  const Node root(doc, "results", file);
  Results r;
  r.dir = dir;
  if (root.has("schema_version")) {  // 1 had no key; a newer file may mean what this reader cannot know
    const Node v = root.at("schema_version");
    r.schema_version = static_cast<int>(v.whole(0, 1000));
    if (r.schema_version < 2 || r.schema_version > study::results_schema_version)
      v.fail(fmt::format("{}: this study reads versions 2 to {} (and version 1, which has no schema_version key); a newer "
                         "study wrote it? read it with that study, or run the study again", r.schema_version,
                         study::results_schema_version));
  }
  const Node meta = root.at("meta");
  r.compiler = meta.at("compiler").text(), r.flags = meta.at("flags").text(), r.cpu = meta.at("cpu").text();
  r.revision = meta.at("revision").text(), r.date = meta.at("date").text();
  if (meta.has("elapsed_seconds")) r.elapsed = meta.at("elapsed_seconds").number();
  if (meta.has("reference")) r.reference_solver = meta.at("reference").at("solver").text();
  const Node studies = root.at("studies");
  if (studies.size() == 0) studies.fail("is empty: a results file holds at least one study (nothing to report or to gate)");
  for (std::size_t i = 0; i < studies.size(); ++i) {
    const Node s = studies.at(i);
    Study st;
    st.name = s.at("name").text(), st.title = s.at("title").text(study::max_text_length), st.problem = s.at("problem").text();
    // The name becomes a folder and plot file names: held to the spec's grammar, so that a results file from
    // elsewhere cannot reach outside its folder.
    if (const std::string why = study::name_problem(st.name); !why.empty())
      s.at("name").fail("'" + study::printable(st.name) + "' " + why);
    for (const auto& other : r.studies)
      if (other.name == st.name) s.at("name").fail("'" + st.name + "' is the name of an earlier study too");
    st.t_end = s.at("t_end").positive();
    if (s.has("scan")) {
      const Node scan = s.at("scan");
      st.scan.name = scan.at("name").text();
      if (const std::string why = study::name_problem(st.scan.name); !why.empty())
        scan.at("name").fail("'" + study::printable(st.scan.name) + "' " + why);
      const Node axes = scan.at("axes"), values = scan.at("values");
      if (axes.size() == 0 || axes.size() != values.size())
        axes.fail(fmt::format("has {} axes and {} values: one value per axis, at least one", axes.size(), values.size()));
      for (std::size_t k = 0; k < axes.size(); ++k) {
        // An axis names plot files (NAME-scan-order-AXIS): a parameter's or t_end's grammar, once each.
        const std::string axis = axes.at(k).text();
        if (axis.empty() || axis.size() > study::max_name_length || !std::isalpha(static_cast<unsigned char>(axis.front())) ||
            axis.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
          axes.at(k).fail("'" + study::printable(axis) + "' is not a parameter's name (a letter, then letters, digits or '_')");
        if (std::find(st.scan.axes.begin(), st.scan.axes.end(), axis) != st.scan.axes.end())
          axes.at(k).fail("'" + axis + "' is an axis twice");
        const double v = values.at(k).number();
        if (!std::isfinite(v)) values.at(k).fail("must be a finite number");
        st.scan.axes.push_back(axis), st.scan.values.push_back(v);
      }
      st.scan.count = static_cast<std::size_t>(scan.at("count").whole(1, static_cast<long>(study::max_scan_points)));
      st.scan.index = static_cast<std::size_t>(scan.at("index").whole(0, static_cast<long>(st.scan.count) - 1));
    }
    if (s.has("spec")) st.spec_file = s.at("spec").text();
    if (s.has("params"))
      for (const auto& k : s.at("params").keys()) st.params.emplace_back(k, s.at("params").at(k).text());
    // A scan point's values are copies of its t_end and parameters: one edited alone is refused, not plotted.
    for (std::size_t k = 0; k < st.scan.axes.size(); ++k) {
      const std::string& axis = st.scan.axes[k];
      const double v = st.scan.values[k];
      double copy = NAN;
      std::string where;
      if (axis == "t_end") copy = st.t_end, where = "t_end";
      for (const auto& [name, text] : st.params)
        if (name == axis) copy = std::strtod(text.c_str(), nullptr), where = "params." + name;
      if (where.empty()) continue;  // a copy that is not there cannot disagree (results of tests, older writers)
      if (!(std::abs(copy - v) <= 1e-12 * std::max(std::abs(copy), std::abs(v))))
        s.at("scan").at("values").at(k).fail(fmt::format("{} disagrees with {} = {} of the same study: each is a copy of one value "
                                                          "(was the file edited in one place?)", num17(v), where, num17(copy)));
    }
    st.plot_dt = s.has("plot_dt") ? s.at("plot_dt").nonnegative() : 0;
    const Node metrics = s.at("metrics");
    for (std::size_t k = 0; k < metrics.size(); ++k) st.metrics.push_back(metrics.at(k).text());
    if (s.has("varying_dt"))
      st.dt_pattern = s.at("varying_dt").at("pattern").text(), st.dt_amplitude = s.at("varying_dt").at("amplitude").number();
    const Node ref = s.at("reference");
    st.ref_tol = ref.at("tolerance").positive(), st.ref_bound = ref.at("error_bound").nonnegative();
    st.position_scale = ref.at("position_scale").positive();
    if (ref.has("velocity_scale")) st.velocity_scale = ref.at("velocity_scale").positive();
    if (s.has("auto_dt")) {
      const Node a = s.at("auto_dt");
      st.auto_runs = static_cast<int>(a.at("runs").whole(0, 1000)), st.auto_seconds = a.at("seconds").nonnegative();
      const Node ladder = a.at("ladder");
      for (std::size_t k = 0; k < ladder.size(); ++k) st.ladder.push_back(ladder.at(k).positive());
      if (a.has("between"))  // files before the levels between halvings have none
        for (std::size_t k = 0, n = a.at("between").size(); k < n; ++k) st.between.push_back(a.at("between").at(k).positive());
    }
    if (s.has("problem_info")) {
      const Node pi = s.at("problem_info");
      st.conservative = pi.at("conservative").boolean(), st.bounded = pi.at("bounded").boolean();
      if (pi.has("periodic")) st.periodic = pi.at("periodic").boolean();
      st.period = pi.at("period").positive();  // the time scale of the energy and reversal judgements
      if (pi.has("time_unit")) st.time_unit = pi.at("time_unit").text(), st.length_unit = pi.at("length_unit").text();
    }
    if (s.has("integrators")) {
      const Node ints = s.at("integrators");
      for (std::size_t k = 0; k < ints.size(); ++k) {
        const Node x = ints.at(k);
        IntegratorRow& d = st.declared.emplace_back();
        d.label = x.at("label").text(), d.id = x.at("id").text();
        for (std::size_t q = 0; q + 1 < st.declared.size(); ++q)
          if (st.declared[q].label == d.label) x.at("label").fail("'" + d.label + "' is the label of an earlier integrator too");
        d.expected_global = static_cast<int>(x.at("expected_global").whole(0, 100));
        d.expected_local = static_cast<int>(x.at("expected_local").whole(0, 100));
        d.symplectic = x.at("symplectic").boolean(), d.symmetric = x.at("symmetric").boolean(), d.implicit = x.at("implicit").boolean();
        // Written since method tables (results before them: a built-in's declared order is its expected one).
        d.declared_order = x.has("declared_order") ? static_cast<int>(x.at("declared_order").whole(0, 100)) : d.expected_global;
        if (x.has("evals_per_step")) d.evals_per_step = static_cast<int>(x.at("evals_per_step").whole(1, 1'000'000));
        if (x.has("table")) d.table = x.at("table").text();
        if (x.has("source")) d.source = x.at("source").text();
        d.family = x.has("family") ? x.at("family").one_of({"explicit-rk", "splitting", "implicit", "own"})
                   : d.implicit    ? "implicit"
                   : d.symplectic  ? "splitting"
                                   : "explicit-rk";
        if (x.has("predicted") && !x.at("predicted").is_null()) {
          const Node p = x.at("predicted");
          d.predicted_order = static_cast<int>(p.at("order").whole(0, 100));
          d.predicted_exact_order = static_cast<int>(p.at("exact_order").whole(0, 100));
          d.error_coefficient = p.at("error_coefficient").number();
          d.conditions = p.at("conditions").text(), d.first_failing = p.at("first_failing").text();
          if (p.has("linear_order")) d.linear_order = static_cast<int>(p.at("linear_order").whole(1, 100));
        }
      }
    }
    // Every row names an integrator the study declares (results before the declarations name any).
    auto declared = [&st](const Node& n) {
      std::string label = n.text();
      if (!st.declared.empty() &&
          std::none_of(st.declared.begin(), st.declared.end(), [&](const IntegratorRow& d) { return d.label == label; }))
        n.fail("'" + study::printable(label) + "' is not one of the study's integrators");
      return label;
    };
    const Node runs = s.at("runs");
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const Node x = runs.at(k);
      RunRow row;
      row.integrator = declared(x.at("integrator")), row.status = x.at("status").one_of({"ok", "diverged"});
      if (x.has("id")) row.id = x.at("id").text(), row.substeps = static_cast<int>(x.at("substeps").whole(1, 1000000));
      row.dt = x.at("dt").positive(), row.steps = x.at("steps").whole(0, max_count);
      if (x.has("diverged")) {
        const Node d = x.at("diverged");
        row.diverged_step = d.at("step").whole(0, max_count), row.diverged_t = d.at("t").number();
        row.reason = d.at("reason").text();
      }
      const Node err = x.at("error");
      // Errors are sizes: a negative one is a forged or broken file (it would pass any gate).
      auto size_or_nan = [](const Node& n, const std::string& key) { return n.has(key) ? n.at(key).nonnegative() : std::nan(""); };
      row.global = err.at("global").nonnegative(), row.max = err.at("max").nonnegative();
      row.local = err.at("local").nonnegative();
      row.position = size_or_nan(err, "position"), row.local_position = size_or_nan(err, "local_position");
      row.reversal = size_or_nan(err, "reversal");
      row.roundoff = err.at("roundoff").nonnegative();
      row.roundoff_max = size_or_nan(err, "roundoff_max");
      row.energy_max = x.at("energy").at("max_rel").nonnegative(), row.drift = x.at("energy").at("drift_per_time").number();
      row.behaviour = x.at("energy").at("behaviour").is_null() ? "" : x.at("energy").at("behaviour").text();
      const Node energy = x.at("energy");
      row.energy_final = energy.number_or_nan("final_rel"), row.energy_roundoff = size_or_nan(energy, "roundoff");
      row.angular_momentum = size_or_nan(energy, "angular_momentum_max_rel");
      row.ns_min = x.at("ns_per_step").at("min").nonnegative();
      row.ns_median = size_or_nan(x.at("ns_per_step"), "median");
      row.force_evals = x.at("force_evals").nonnegative();
      row.jacobian_evals = x.number_or_nan("jacobian_evals"), row.iterations = x.number_or_nan("iterations");
      row.evals_per_step = row.force_evals / static_cast<double>(std::max(1L, row.steps));
      const Node final_state = x.at("final_state");
      const Node fq = final_state.at("q");
      for (std::size_t c = 0; c < fq.size(); ++c) row.final_q.push_back(fq.at(c).number());
      if (final_state.has("v")) {
        const Node fv = final_state.at("v");
        for (std::size_t c = 0; c < fv.size(); ++c) row.final_v.push_back(fv.at(c).number());
      }
      if (std::find(st.integrators.begin(), st.integrators.end(), row.integrator) == st.integrators.end())
        st.integrators.push_back(row.integrator);
      // One run per integrator and step size: a repeated one (a file edited or merged) would be read as the first by
      // one reader and the last by another.
      for (std::size_t q = 0; q < st.runs.size(); ++q)
        if (st.runs[q].integrator == row.integrator && st.runs[q].dt == row.dt)
          x.at("dt").fail(fmt::format("repeats runs[{}] ('{}' at dt {}): each integrator runs each step size once (was the "
                                      "file edited or merged?)", q, study::printable(row.integrator), num17(row.dt)));
      st.runs.push_back(row);
    }
    if (s.has("sweeps")) {
      const Node w = s.at("sweeps");
      for (std::size_t k = 0; k < w.size(); ++k) {
        SweepRow row{declared(w.at(k).at("integrator")), w.at(k).at("automatic").boolean(), {}, w.at(k).at("stop").text(), {}, {}};
        const Node sweep = w.at(k);
        if (sweep.has("stop_cause")) row.stop_cause = sweep.at("stop_cause").text();
        if (sweep.has("halvings_end")) row.halvings_end = sweep.at("halvings_end").text();
        const Node dts = sweep.at("dts");
        for (std::size_t q = 0; q < dts.size(); ++q) row.dts.push_back(dts.at(q).positive());
        st.sweeps.push_back(std::move(row));
      }
    }
    // Runs in wider arithmetic (schema 5), read before the orders whose wide points copy them.
    if (s.has("wide_budget")) st.wide_budget = s.at("wide_budget").nonnegative();
    if (s.has("accuracy")) {
      const Node acc = s.at("accuracy");
      for (std::size_t q = 0; q < acc.size(); ++q) {
        const double x = acc.at(q).positive();
        if (!(x >= 1e-30 && x < 1)) acc.at(q).fail("must be a relative global error from 1e-30 up to (not including) 1");
        st.accuracy.push_back(x);
      }
    }
    if (s.has("wide_runs")) {
      const Node w = s.at("wide_runs");
      for (std::size_t k = 0; k < w.size(); ++k) {
        const Node x = w.at(k);
        WideRunRow row;
        row.integrator = declared(x.at("integrator")), row.arithmetic = x.at("arithmetic").one_of({"long double", "float128"});
        row.dt = x.at("dt").positive(), row.steps = x.at("steps").whole(1, max_count);
        row.status = x.at("status").one_of({"ok", "diverged", "unsupported"});
        if (x.has("reason")) row.reason = x.at("reason").text();
        auto size = [](const Node& n) { return n.is_null() ? NAN : n.nonnegative(); };
        const Node e = x.at("error"), f = x.at("floor");
        row.global = size(e.at("global")), row.max = size(e.at("max")), row.local = size(e.at("local"));
        row.floor_global = size(f.at("global")), row.floor_max = size(f.at("max")), row.floor_local = size(f.at("local"));
        row.force_evals = x.at("force_evals").nonnegative();
        for (std::size_t q = 0; q < st.wide_runs.size(); ++q)
          if (st.wide_runs[q].integrator == row.integrator && st.wide_runs[q].arithmetic == row.arithmetic && st.wide_runs[q].dt == row.dt)
            x.at("dt").fail(fmt::format("repeats wide_runs[{}] ('{}' in {} at dt {}): each step size runs once in each arithmetic (was "
                                        "the file edited or merged?)", q, study::printable(row.integrator), row.arithmetic, num17(row.dt)));
        st.wide_runs.push_back(std::move(row));
      }
    }
    if (s.has("wide_sweeps")) {
      const Node w = s.at("wide_sweeps");
      for (std::size_t k = 0; k < w.size(); ++k) {
        const Node x = w.at(k);
        WideSweepRow row{declared(x.at("integrator")), x.at("arithmetic").one_of({"long double", "float128"}), x.at("why").text(),
                         x.at("stop").text(), {}, x.at("work").nonnegative(),
                         "float128 reference", 0};
        // Written since the float128 runs may measure against the exact solution (files of earlier schema-5 builds lack them).
        if (x.has("reference")) row.reference = x.at("reference").one_of({"float128 reference", "exact solution"});
        if (x.has("reference_bound")) row.reference_bound = x.at("reference_bound").nonnegative();
        for (std::size_t q = 0; q < x.at("dts").size(); ++q) row.dts.push_back(x.at("dts").at(q).positive());
        st.wide_sweeps.push_back(std::move(row));
      }
    }
    const Node orders = s.at("orders");
    for (std::size_t k = 0; k < orders.size(); ++k) {
      const Node x = orders.at(k);
      OrderRow o;
      o.integrator = declared(x.at("integrator")), o.metric = x.at("metric").text();
      o.expected = static_cast<int>(x.at("expected").whole(0, 100));
      o.observed = x.at("observed").number();
      o.dt_min = x.at("window").at("dt_min").number(), o.dt_max = x.at("window").at("dt_max").number();
      o.points = x.at("window").at("points").whole(0, max_count);
      o.r2 = x.at("r2").number();
      if (x.has("reason")) o.reason = x.at("reason").text();
      if (x.has("verdict")) {  // schema 2
        o.verdict = x.at("verdict").one_of({"pass", "fail", "undetermined"}), o.action = x.at("action").text();
        o.asymptotic = x.at("asymptotic").boolean();
        o.std_error = x.number_or_nan("std_error"), o.trend_limit = x.number_or_nan("trend_limit");
        if (x.has("local_slopes"))
          for (std::size_t q = 0; q < x.at("local_slopes").size(); ++q) o.local_slopes.push_back(x.at("local_slopes").at(q).number());
        if (!x.at("interval").is_null()) o.lo = x.at("interval").at(0).number(), o.hi = x.at("interval").at(1).number();
        const Node pts = x.at("points");
        for (std::size_t q = 0; q < pts.size(); ++q)
          o.sweep.push_back({pts.at(q).at(0).number(), pts.at(q).at(1).number(), pts.at(q).at(2).number()});
        agree_with_runs(st, o, pts);
      }
      if (x.has("arithmetic")) o.arithmetic = x.at("arithmetic").one_of({"double", "long double", "float128"});  // schema 5
      {
        if (x.has("wide_points")) {
          const Node wide = x.at("wide_points");
          for (const std::string arithmetic : {"long double", "float128"}) {
            if (!wide.has(arithmetic)) continue;
            const Node pts = wide.at(arithmetic);
            std::vector<std::array<double, 3>> points;
            for (std::size_t q = 0; q < pts.size(); ++q)
              points.push_back({pts.at(q).at(0).number(), pts.at(q).at(1).number(), pts.at(q).at(2).number()});
            o.wide.emplace_back(arithmetic, std::move(points));
            agree_with_wide_runs(st, o, arithmetic, pts);
          }
          for (const std::string& key : wide.keys())
            if (key != "long double" && key != "float128")
              wide.fail("holds '" + study::printable(key) + "': the wide arithmetics are 'long double' and 'float128'");
        }
        if (o.arithmetic != "double" &&
            std::none_of(o.wide.begin(), o.wide.end(), [&](const auto& w) { return w.first == o.arithmetic && !w.second.empty(); }))
          x.at("arithmetic").fail("is '" + o.arithmetic + "', but the order holds no points in it (wide_points): the verdict cannot be "
                                  "fitted again (was the file edited?)");
      }
      for (std::size_t q = 0; q < st.orders.size(); ++q)
        if (st.orders[q].integrator == o.integrator && st.orders[q].metric == o.metric)
          x.at("metric").fail(fmt::format("repeats orders[{}] ('{}', {}): one order per integrator and metric", q,
                                          study::printable(o.integrator), study::printable(o.metric)));
      st.orders.push_back(o);
    }
    // Every order the study measured is in the file (schema 2 on): an order lost (`orders: []`, a row deleted) would
    // take its check out of the gate without a word.  The engine fits one per integrator with runs at three or more
    // step sizes (study/spec/spec.hpp: fits_orders) and per order metric (global and max with 'global', local with
    // 'local').
    if (r.schema_version >= 2)
      for (const auto& d : st.declared) {
        std::vector<double> dts;
        for (const auto& run : st.runs)
          if (run.integrator == d.label && std::find(dts.begin(), dts.end(), run.dt) == dts.end()) dts.push_back(run.dt);
        if (dts.size() < 3) continue;
        for (const char* metric : {"global", "max", "local"}) {
          const std::string wanted = std::string(metric) == "max" ? "global" : metric;
          if (std::find(st.metrics.begin(), st.metrics.end(), wanted) == st.metrics.end()) continue;
          if (std::none_of(st.orders.begin(), st.orders.end(),
                           [&](const OrderRow& o) { return o.integrator == d.label && o.metric == metric; }))
            orders.fail(fmt::format("has no {} order of '{}', which ran at {} step sizes with metric '{}': a measured "
                                    "order's check cannot be left out (was the file edited?)",
                                    metric, study::printable(d.label), dts.size(), wanted));
        }
      }
    if (s.has("energy_long")) {
      const Node e = s.at("energy_long");
      for (std::size_t k = 0; k < e.size(); ++k) {
        // An adaptive pair's long run (tol): its label is checked against the adaptive integrators, read below.
        const bool pair = e.at(k).has("tol");
        st.energy_long.push_back({pair ? e.at(k).at("integrator").text() : declared(e.at(k).at("integrator")),
                                  pair ? e.at(k).at("status").one_of({"ok", "diverged", "step-limit", "underflow", "rejections"})
                                       : e.at(k).at("status").one_of({"ok", "diverged"}),
                                  e.at(k).at("dt").positive(), e.at(k).at("growth_exponent").number(), e.at(k).at("final_rel").number()});
        if (pair) st.energy_long.back().tol = e.at(k).at("tol").positive();
        if (pair && e.at(k).has("reason")) st.energy_long.back().reason = e.at(k).at("reason").text();
        if (e.at(k).has("steps")) st.energy_long.back().steps = e.at(k).at("steps").whole(0, max_count);
        st.energy_long.back().diverged_t = e.at(k).number_or_nan("diverged_t");
        if (e.at(k).has("max_rel") && !e.at(k).at("max_rel").is_null()) st.energy_long.back().max_rel = e.at(k).at("max_rel").nonnegative();
        if (e.at(k).has("growth_interval") && !e.at(k).at("growth_interval").is_null())
          st.energy_long.back().growth_lo = e.at(k).at("growth_interval").at(0).number(),
          st.energy_long.back().growth_hi = e.at(k).at("growth_interval").at(1).number();
      }
    }
    if (s.has("stability")) {
      const Node e = s.at("stability");
      for (std::size_t k = 0; k < e.size(); ++k) {
        StabilityRow row{declared(e.at(k).at("integrator")), e.at(k).at("note").text(), "", e.at(k).at("limit").number(), std::nan("")};
        if (e.at(k).has("theory")) {
          const Node entry = e.at(k);
          const Node t = entry.at("theory");
          row.theory = t.is_string() && t.text() == "unbounded" ? INFINITY : t.number();
          row.theory_basis = e.at(k).at("theory_basis").text();
        }
        if (e.at(k).has("beyond_search")) row.beyond_search = e.at(k).at("beyond_search").boolean();
        st.stability.push_back(row);
      }
    }
    if (s.has("adaptive")) {  // adaptive integrators, their runs and tolerance proportionality (schema: "adaptive")
      const Node a = s.at("adaptive");
      const Node tols = a.at("tolerances");
      for (std::size_t k = 0; k < tols.size(); ++k) st.tolerances.push_back(tols.at(k).positive());
      const Node ints = a.at("integrators");
      for (std::size_t k = 0; k < ints.size(); ++k) {
        const Node x = ints.at(k);
        AdaptiveIntegratorRow d;
        d.label = x.at("label").text(), d.id = x.at("id").text(), d.controller = x.at("controller").text();
        d.source = x.at("source").text();
        d.order = static_cast<int>(x.at("order").whole(1, 100)), d.order_hat = static_cast<int>(x.at("order_hat").whole(1, 100));
        d.evals_per_step = static_cast<int>(x.at("evals_per_step").whole(1, 100000));
        d.expected_slope = x.at("expected_slope").positive();
        if (x.has("params")) {
          const Node p = x.at("params");
          for (const auto& key : p.keys()) d.params[key] = p.at(key).number();
        }
        if (x.has("coefficients")) d.coefficients = x.at("coefficients").text();
        if (x.has("slope_from")) d.slope_basis = x.at("slope_from").text();
        d.fixed_steps = x.has("fixed_steps") ? x.at("fixed_steps").text() : d.id;  // results before it: the pair's own id
        for (const auto& other : st.adaptive)
          if (other.label == d.label) x.at("label").fail("'" + study::printable(d.label) + "' is listed twice");
        st.adaptive.push_back(std::move(d));
      }
      auto adaptive_label = [&st](const Node& n) {
        std::string label = n.text();
        if (std::none_of(st.adaptive.begin(), st.adaptive.end(), [&](const AdaptiveIntegratorRow& d) { return d.label == label; }))
          n.fail("'" + study::printable(label) + "' is not one of the study's adaptive integrators");
        return label;
      };
      const Node runs = a.at("runs");
      for (std::size_t k = 0; k < runs.size(); ++k) {
        const Node x = runs.at(k);
        AdaptiveRow row;
        row.integrator = adaptive_label(x.at("integrator"));
        row.status = x.at("status").one_of({"ok", "step-limit", "underflow", "rejections", "diverged"});
        if (x.has("reason")) row.reason = x.at("reason").text();
        row.tol = x.at("tol").positive(), row.t_reached = x.at("t_reached").nonnegative();
        row.global = x.at("error").at("global").nonnegative(), row.max = x.at("error").at("max").nonnegative();
        if (x.at("error").has("roundoff"))
          row.roundoff = x.at("error").at("roundoff").nonnegative(), row.roundoff_max = x.at("error").at("roundoff_max").nonnegative();
        row.energy_final = x.at("energy").at("final_rel").number(), row.energy_max = x.at("energy").at("max_rel").nonnegative();
        row.accepted = x.at("accepted").whole(0, max_count), row.rejected = x.at("rejected").whole(0, max_count);
        if (x.has("cut")) row.cut = x.at("cut").whole(0, max_count);
        row.force_evals = x.at("force_evals").nonnegative();
        // A run that took steps evaluated the force at least once a step: fewer is a number edited by hand.
        if (row.status == "ok" && row.accepted > 0 && !(row.force_evals >= static_cast<double>(row.accepted)))
          x.at("force_evals").fail(fmt::format("{} force evaluations for {} accepted steps: every step evaluates the force at least once",
                                               row.force_evals, row.accepted));
        row.h_min = x.at("h_min").nonnegative(), row.h_max = x.at("h_max").nonnegative();
        row.seconds_min = x.at("seconds_min").nonnegative(), row.seconds_median = x.at("seconds_median").nonnegative();
        st.adaptive_runs.push_back(std::move(row));
      }
      st.adaptive_work = adaptive_work_of(st);
      if (a.has("samples")) a.at("samples").one_of({"adaptive_samples.csv"}), st.adaptive_samples = true;
      st.adaptive_outputs = a.at("output_times").whole(2, max_count);
      st.adaptive_cut = !a.has("outputs") || a.at("outputs").one_of({"free", "cut"}) == "cut";
      const Node prop = a.at("proportionality");
      for (std::size_t k = 0; k < prop.size(); ++k) {
        const Node x = prop.at(k);
        ProportionalityRow row;
        row.integrator = adaptive_label(x.at("integrator"));
        row.expected = x.at("expected").positive();
        row.verdict = x.at("verdict").one_of({"pass", "fail", "undetermined"});
        row.reason = x.at("reason").text(), row.action = x.at("action").text();
        row.observed = x.at("observed").number();
        if (!x.at("interval").is_null()) row.lo = x.at("interval").at(0).number(), row.hi = x.at("interval").at(1).number();
        row.tol_min = x.at("window").at("tol_min").number(), row.tol_max = x.at("window").at("tol_max").number();
        row.window_points = x.at("window").at("points").whole(0, max_count);
        if (x.has("output_limited")) row.output_limited = x.at("output_limited").whole(0, max_count);
        const Node pts = x.at("points");
        for (std::size_t i = 0; i < pts.size(); ++i)
          row.points.push_back({pts.at(i).at(0).positive(), pts.at(i).at(1).nonnegative(), pts.at(i).at(2).nonnegative()});
        for (const auto& other : st.proportionality)
          if (other.integrator == row.integrator) x.at("integrator").fail("'" + study::printable(row.integrator) + "' has a fit already");
        // One copy of each number: the slope's expected value is its integrator's, its points and the runs it left out
        // are its runs' (as the engine derived them), or a hand edit would change the verdict.
        const AdaptiveIntegratorRow* d = nullptr;
        for (const auto& i : st.adaptive) d = i.label == row.integrator ? &i : d;
        if (row.expected != d->expected_slope)
          x.at("expected").fail(fmt::format("{} differs from the integrator's expected_slope {} (adaptive.integrators): one of the two "
                                            "copies was edited", num17(row.expected), num17(d->expected_slope)));
        const ProportionalityRow derived = proportionality_of(st, row.integrator);
        if (row.output_limited != derived.output_limited)
          x.at("output_limited").fail(fmt::format("{}, but {} of its runs (adaptive.runs) had most steps cut to an output time",
                                                  row.output_limited, derived.output_limited));
        if (row.points.size() != derived.points.size())
          pts.fail(fmt::format("{} points, but its runs (adaptive.runs) give {}: one of the two copies was edited", row.points.size(),
                               derived.points.size()));
        for (std::size_t i = 0; i < pts.size(); ++i)
          if (row.points[i] != derived.points[i])
            pts.at(i).fail(fmt::format("[{}, {}, {}] is not its run's (tol, largest error, floor) [{}, {}, {}] (adaptive.runs): one "
                                       "of the two copies was edited", num17(row.points[i][0]), num17(row.points[i][1]),
                                       num17(row.points[i][2]), num17(derived.points[i][0]), num17(derived.points[i][1]),
                                       num17(derived.points[i][2])));
        st.proportionality.push_back(std::move(row));
      }
      // Every pair has its fit where the sweep has the tolerances for one (3 or more): a deleted one is an edit.
      if (st.tolerances.size() >= 3)
        for (const auto& i : st.adaptive)
          if (std::none_of(st.proportionality.begin(), st.proportionality.end(), [&](const auto& p) { return p.integrator == i.label; }))
            prop.fail("has no fit for '" + study::printable(i.label) + "', though its " + std::to_string(st.tolerances.size()) +
                      " tolerances give one: an entry was deleted");
    }
    for (std::size_t k = 0; k < st.energy_long.size(); ++k)  // an adaptive pair's long run is one of the study's pairs'
      if (st.energy_long[k].tol > 0 && std::none_of(st.adaptive.begin(), st.adaptive.end(), [&](const AdaptiveIntegratorRow& d) {
            return d.label == st.energy_long[k].integrator;
          }))
        s.at("energy_long").at(k).at("integrator").fail("'" + study::printable(st.energy_long[k].integrator) +
                                                        "' has a tolerance (an adaptive pair's long run) but is not one of the study's adaptive integrators");
    if (s.has("vs")) {  // the method the report measures the others against: one of this study's
      st.vs = s.at("vs").text();
      const auto methods = st.work_methods();
      if (std::find(methods.begin(), methods.end(), st.vs) == methods.end())
        s.at("vs").fail("'" + study::printable(st.vs) + "' is not one of the study's methods (" + join_names(methods) + ")");
    }
    // The points of one scan agree on its axes and size, each index once.
    if (!st.scan.name.empty())
      for (const auto& other : r.studies)
        if (other.scan.name == st.scan.name) {
          if (other.scan.axes != st.scan.axes || other.scan.count != st.scan.count)
            s.at("scan").fail("its axes or count differ from those of '" + other.name + "', a point of the same scan '" + st.scan.name + "'");
          if (other.scan.index == st.scan.index)
            s.at("scan").at("index").fail(fmt::format("{} is the index of '{}' in the same scan too", st.scan.index, other.name));
        }
    r.studies.push_back(std::move(st));
  }
  return r;
}

ProportionalityRow proportionality_of(const Study& s, const std::string& label) {
  // As the engine fits it (study/results/orders.cpp, fit_proportionality): the largest error over the output times of
  // each run that reached t_end, its floor the reference's bound and the run's measured round-off, else a random walk
  // of round-off over its accepted steps; a run most of whose steps were cut to an output time left out, and counted.
  ProportionalityRow p;
  p.integrator = label;
  const double eps = std::numeric_limits<double>::epsilon();
  for (const AdaptiveRow& r : s.adaptive_runs) {
    if (r.integrator != label || r.status != "ok") continue;
    if (2 * r.cut > r.accepted) {
      ++p.output_limited;
      continue;
    }
    const double roundoff = std::isfinite(r.roundoff_max) ? r.roundoff_max : eps * std::sqrt(static_cast<double>(std::max(1L, r.accepted)));
    p.points.push_back({r.tol, r.max, std::max(s.ref_bound, roundoff)});
  }
  return p;
}

std::vector<RunRow> adaptive_work_of(const Study& s) {
  std::vector<RunRow> out;
  for (const AdaptiveRow& row : s.adaptive_runs)
    if (row.status == "ok" && row.accepted > 0 && std::isfinite(row.global)) {
      RunRow w;
      w.integrator = row.integrator, w.status = "ok", w.steps = row.accepted, w.tol = row.tol;
      for (const auto& d : s.adaptive)
        if (d.label == row.integrator) w.id = d.id;
      w.dt = s.t_end / static_cast<double>(row.accepted);  // its mean step
      w.global = row.global, w.max = row.max, w.energy_max = row.energy_max, w.energy_final = row.energy_final;
      w.force_evals = row.force_evals, w.evals_per_step = row.force_evals / static_cast<double>(row.accepted);
      w.roundoff = row.roundoff;
      w.ns_min = row.seconds_min * 1e9 / static_cast<double>(row.accepted);
      w.ns_median = row.seconds_median * 1e9 / static_cast<double>(row.accepted);
      out.push_back(std::move(w));
    }
  return out;
}

std::optional<Bench> load_bench(const fs::path& dir) {
  const fs::path file = dir / "bench.json";
  require_regular(file);
  std::ifstream in(file);
  if (!in) return std::nullopt;
  return load_bench_document(parse(in, file), file);
}

Bench load_bench_document(const nlohmann::json& doc, const fs::path& file) {
  const Node root(doc, "bench", file);
  Bench b;
  const Node meta = root.at("meta");
  b.compiler = meta.at("compiler").text(), b.flags = meta.at("flags").text(), b.cpu = meta.at("cpu").text();
  b.revision = meta.at("revision").text(), b.date = meta.at("date").text();
  b.cpus = static_cast<int>(meta.at("cpus").whole(0, 1 << 20)), b.mhz = meta.at("mhz").number();
  const Node method = root.at("method");
  b.steps = method.at("steps_per_iteration").whole(0, max_count), b.min_time = method.at("min_time_seconds").number();
  b.repetitions = static_cast<int>(method.at("repetitions").whole(0, 1 << 20)), b.statistic = method.at("statistic").text();
  const Node problems = root.at("problems");
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const Node p = problems.at(i);
    BenchProblem bp;
    bp.problem = p.at("problem").text(), bp.dt = p.at("dt").number();
    bp.floor_ns = p.at("floor_ns_per_step").number(), bp.floor_spread = p.at("floor_spread").number();
    bp.throughput_ns = p.at("throughput_floor_ns_per_step").number();
    const Node rows = p.at("integrators");
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Node x = rows.at(k);
      bp.rows.push_back({x.at("integrator").text(), x.at("odeint").is_null() ? "" : x.at("odeint").text(), x.at("ns_per_step").number(),
                         x.at("spread").number(), x.at("evals_per_step").number(), x.at("floor_ratio").number(),
                         x.at("odeint_ns_per_step").number(), x.at("odeint_ratio").number(), x.at("implicit").boolean()});
    }
    const Node odeint = p.at("odeint");
    for (std::size_t k = 0; k < odeint.size(); ++k) {
      const Node x = odeint.at(k);
      bp.odeint.push_back({x.at("stepper").text(), x.at("ns_per_step").number(), x.at("spread").number(), x.at("evals_per_step").number()});
    }
    if (p.has("tables")) {
      const Node tables = p.at("tables");
      for (std::size_t k = 0; k < tables.size(); ++k) {
        const Node x = tables.at(k);
        bp.tables.push_back({x.at("integrator").text(), x.at("ns_per_step").number(), x.at("spread").number(),
                             x.at("builtin_ns_per_step").number(), x.at("builtin_spread").number(), x.at("ratio").number()});
      }
    }
    if (p.has("pairs")) {
      const Node pairs = p.at("pairs");
      for (std::size_t k = 0; k < pairs.size(); ++k) {
        const Node x = pairs.at(k);
        bp.pairs.push_back({x.at("integrator").text(), x.at("odeint").text(), x.at("tol").number(), x.at("span").number(),
                            x.at("tries").nonnegative(), x.at("ns_per_try").number(), x.at("spread").number(), x.at("odeint_ns_per_try").number(),
                            x.at("odeint_spread").number(), x.at("ratio").number()});
      }
    }
    const Node all_checks = root.at("checks");
    const Node checks = all_checks.at(bp.problem);
    for (std::size_t k = 0; k < checks.size(); ++k) {
      const Node x = checks.at(k);
      b.checks.push_back({bp.problem, x.at("integrator").text(), x.at("odeint").text(), x.at("criterion").text(),
                          x.at("distance").number(), x.at("allowance").number(), x.at("ok").boolean()});
    }
    b.problems.push_back(std::move(bp));
  }
  return b;
}

namespace {
bool same_dt(double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); }

/// A row of a samples table (samples.csv, energy_long.csv) of a run results.json does not have (`what`).
[[noreturn]] void unknown_sample(const Table& t, std::size_t r, const std::string& integrator, const char* what) {
  throw ReportError(fmt::format("{}:{}: a sample of '{}' at dt {}, {} results.json does not have: the table and the results "
                                "disagree (edited by hand?); run the study again",
                                t.file.string(), t.lines[r], integrator, t.text(r, "dt"), what));
}
}  // namespace

std::size_t Table::column(const std::string& name) const {
  for (std::size_t c = 0; c < header.size(); ++c)
    if (header[c] == name) return c;
  throw ReportError(file.string() + ": no column '" + name + "'");
}

double Table::number(std::size_t r, const std::string& name) const {
  const std::string& x = text(r, name);
  if (x.empty()) return std::nan("");
  double fast = 0;  // the usual case, plain digits, without strtod's locale and arbitrary precision
  if (const auto [p, ec] = std::from_chars(x.data(), x.data() + x.size(), fast); ec == std::errc{} && p == x.data() + x.size()) return fast;
  char* end = nullptr;
  const double v = std::strtod(x.c_str(), &end);
  if (end != x.c_str() + x.size())
    throw ReportError(fmt::format("{}:{}: column '{}': '{}' is not a number", file.string(), lines.at(r), name, x));
  return v;
}

std::optional<Table> read_table(const fs::path& file) {
  require_regular(file);
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  return parse_table(in, file);
}

Table parse_table(std::istream& in, const fs::path& file) {
  std::ostringstream whole;  // read at once, parsed from memory: a study's samples.csv is megabytes
  whole << in.rdbuf();
  const std::string text = whole.str();
  Table t;
  t.file = file;
  // RFC 4180: a quoted field may hold commas, doubled quotes and line breaks; records end in LF or CRLF.
  std::vector<std::string> fields;
  std::string cur;
  bool quoted = false, closed = false, any = false;  // closed: just after a field's closing quote
  std::size_t line = 1, record_line = 1;
  auto bad = [&](const std::string& what) { throw ReportError(fmt::format("{}:{}: {}", file.string(), line, what)); };
  auto end_record = [&] {
    fields.push_back(std::move(cur));
    cur.clear();
    if (t.header.empty()) {
      t.header = std::move(fields);
    } else if (fields.size() != t.header.size()) {
      throw ReportError(fmt::format("{}:{}: {} fields, but the header has {}", file.string(), record_line, fields.size(),
                                    t.header.size()));
    } else {
      t.rows.push_back(std::move(fields)), t.lines.push_back(record_line);
    }
    fields.clear();
  };
  const std::size_t size = text.size();
  for (std::size_t i = 0; i < size; ++i) {
    const char c = text[i];
    const char next = i + 1 < size ? text[i + 1] : '\0';
    if (c == '\r' && next == '\n') continue;  // CRLF: the LF ends the record
    if (quoted) {
      if (c == '"' && next == '"') cur += '"', ++i;
      else if (c == '"') quoted = false, closed = true;
      else cur += c, line += c == '\n';
      continue;
    }
    if (c == ',') {
      fields.push_back(std::move(cur)), cur.clear(), any = true, closed = false;
    } else if (c == '\n') {
      if (any || !cur.empty() || closed) end_record();  // a blank line is no record
      ++line, record_line = line, any = closed = false;
    } else if (closed) {
      bad("a quoted field must end at a comma or a line end");
    } else if (c == '"') {
      if (!cur.empty()) bad("a quote inside an unquoted field");
      quoted = any = true;
    } else {
      // An ordinary run of characters up to the next one that means something, appended at once.
      std::size_t end = i + 1;
      while (end < size && text[end] != ',' && text[end] != '\n' && text[end] != '\r' && text[end] != '"') ++end;
      cur.append(text, i, end - i);
      i = end - 1;
    }
  }
  if (quoted) throw ReportError(fmt::format("{}:{}: a quoted field is not closed", file.string(), record_line));
  if (any || !cur.empty() || closed) end_record();
  return t;
}

std::map<std::string, std::vector<Sample>> samples_at(const Results& res, const Study& s, double dt) {
  for (auto& [step, samples] : all_samples(res, s))
    if (same_dt(step, dt)) return std::move(samples);
  return {};
}

std::vector<std::pair<double, std::map<std::string, std::vector<Sample>>>> all_samples(const Results& res, const Study& s,
                                                                                    const std::vector<double>& only) {
  std::vector<std::pair<double, std::map<std::string, std::vector<Sample>>>> out;
  const auto t = read_table(res.dir / s.name / "samples.csv");
  if (!t) return out;
  const std::size_t integrator = t->column("integrator");
  std::vector<std::pair<std::size_t, bool>> coords;  // column, is a position
  for (std::size_t c = 0; c < t->header.size(); ++c)
    if (const auto& h = t->header[c]; h.size() > 1 && (h[0] == 'q' || h[0] == 'v') && std::isdigit(static_cast<unsigned char>(h[1])))
      coords.emplace_back(c, h[0] == 'q');
  for (std::size_t r = 0; r < t->rows.size(); ++r) {
    const double dt = t->number(r, "dt");
    if (!run_at(s, t->rows[r][integrator], dt)) unknown_sample(*t, r, t->rows[r][integrator], "a run");
    if (!only.empty() && std::none_of(only.begin(), only.end(), [&](double x) { return same_dt(x, dt); })) continue;
    auto group = std::find_if(out.begin(), out.end(), [&](const auto& x) { return same_dt(x.first, dt); });
    if (group == out.end()) group = out.insert(out.end(), {dt, {}});
    Sample x;
    x.t = t->number(r, "t"), x.error = t->number(r, "error"), x.energy = t->number(r, "energy_rel");
    for (const auto& [c, is_q] : coords) (is_q ? x.q : x.v).push_back(t->number(r, t->header[c]));
    group->second[t->rows[r][integrator]].push_back(std::move(x));
  }
  return out;
}

std::map<std::string, std::vector<std::pair<double, double>>> energy_long_samples(const Results& res, const Study& s) {
  std::map<std::string, std::vector<std::pair<double, double>>> out;
  if (const auto t = read_table(res.dir / s.name / "energy_long.csv"))
    for (std::size_t r = 0; r < t->rows.size(); ++r) {
      const std::string integrator = t->text(r, "integrator");
      const double dt = t->number(r, "dt");
      if (std::none_of(s.energy_long.begin(), s.energy_long.end(),
                       [&](const LongRow& e) { return e.integrator == integrator && same_dt(e.dt, dt); }))
        unknown_sample(*t, r, integrator, "a long energy run");
      out[integrator].emplace_back(t->number(r, "t"), t->number(r, "energy_rel"));
    }
  return out;
}

std::map<std::string, std::map<double, std::vector<Sample>>> adaptive_samples(const Results& res, const Study& s) {
  std::map<std::string, std::map<double, std::vector<Sample>>> out;
  if (!s.adaptive_samples) return out;
  const auto t = read_table(res.dir / s.name / "adaptive_samples.csv");
  if (!t) return out;  // not there: check_tables said so
  for (std::size_t r = 0; r < t->rows.size(); ++r) {
    const std::string integrator = t->text(r, "integrator");
    const double tol = t->number(r, "tol");
    if (std::none_of(s.adaptive_runs.begin(), s.adaptive_runs.end(), [&](const AdaptiveRow& a) { return a.integrator == integrator && a.tol == tol; }))
      throw ReportError(fmt::format("{}:{}: a sample of '{}' at tol {}, an adaptive run results.json does not have: the table and the "
                                    "results disagree (edited by hand?); run the study again",
                                    t->file.string(), t->lines[r], study::printable(integrator), t->text(r, "tol")));
    Sample x;
    x.t = t->number(r, "t"), x.error = t->number(r, "error"), x.energy = t->number(r, "energy_rel");
    out[integrator][tol].push_back(std::move(x));
  }
  // A run's rows are its output times in order, t_end j / (outputs - 1), all of them where it reached t_end, and then it
  // ends on its error and energy error there: results.json holds the other copy.
  auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  for (const AdaptiveRow& a : s.adaptive_runs) {
    const auto it = out.find(a.integrator);
    const std::vector<Sample>* rows = it == out.end() || !it->second.count(a.tol) ? nullptr : &it->second.at(a.tol);
    const std::size_t n = static_cast<std::size_t>(s.adaptive_outputs);
    for (std::size_t j = 0; rows && j < rows->size(); ++j) {
      const double at = j + 1 == n ? s.t_end : s.t_end * static_cast<double>(j) / static_cast<double>(n - 1);
      if (j >= n || (*rows)[j].t != at)
        throw ReportError(fmt::format("{}: '{}' at tol {}: its sample {} is at t = {}, but its output times are t_end j / {} (results.json "
                                      "adaptive.output_times {}): rows missing, moved or added (edited by hand?); run the study again",
                                      t->file.string(), study::printable(a.integrator), a.tol, j + 1, (*rows)[j].t, n - 1, n));
    }
    if (a.status != "ok") continue;
    // Its largest error and energy error over the output times are results.json's too.
    double largest = 0, largest_energy = 0;
    for (std::size_t j = 0; rows && j < rows->size(); ++j)
      largest = std::max(largest, (*rows)[j].error), largest_energy = std::max(largest_energy, std::abs((*rows)[j].energy));
    if (rows && rows->size() == n && (largest != a.max || largest_energy != a.energy_max))
      throw ReportError(fmt::format("{}: '{}' at tol {}: its samples' largest error is {} and largest energy error {}, but results.json's "
                                    "run has error.max {} and energy.max_rel {}: the table and the results disagree (edited by hand?); "
                                    "run the study again",
                                    t->file.string(), study::printable(a.integrator), a.tol, largest, largest_energy, a.max, a.energy_max));
    if (!rows || rows->size() != n || rows->back().error != a.global || !same(rows->back().energy, a.energy_final))
      throw ReportError(fmt::format("{}: '{}' at tol {}: {}, but results.json's run has error {} and energy error {} at t_end: the table "
                                    "and the results disagree (edited by hand?); run the study again",
                                    t->file.string(), study::printable(a.integrator), a.tol,
                                    rows && !rows->empty() ? fmt::format("its last sample has error {} and energy error {}", rows->back().error,
                                                                         rows->back().energy)
                                                           : std::string("no samples"),
                                    a.global, a.energy_final));
  }
  return out;
}

const OrderRow* find_order(const Study& s, const std::string& integrator, const std::string& metric) {
  for (const auto& o : s.orders)
    if (o.integrator == integrator && o.metric == metric) return &o;
  return nullptr;
}

const SweepRow* find_sweep(const Study& s, const std::string& integrator) {
  for (const auto& w : s.sweeps)
    if (w.integrator == integrator) return &w;
  return nullptr;
}

const RunRow* run_at(const Study& s, const std::string& integrator, double dt) {
  for (const auto& r : s.runs)
    if (r.integrator == integrator && same_dt(r.dt, dt)) return &r;
  return nullptr;
}

const RunRow* finest_ok(const Study& s, const std::string& integrator) {
  const RunRow* best = nullptr;
  for (const auto& r : s.runs)
    if (r.integrator == integrator && r.status == "ok" && (!best || r.dt < best->dt)) best = &r;
  return best;
}

const Study* study_named(const Results& r, const std::string& name) {
  for (const auto& s : r.studies)
    if (s.name == name) return &s;
  return nullptr;
}

const RunRow* most_accurate(const Study& s) {
  const RunRow* best = nullptr;
  for (const auto& r : s.runs)
    if (r.status == "ok" && std::isfinite(r.global) && (!best || r.global < best->global)) best = &r;
  return best;
}

const RunRow* cheapest_to_reach(const Study& s, const std::string& integrator, double target, bool by_time) {
  const RunRow* best = nullptr;
  auto cost = [&](const RunRow& r) { return by_time ? r.ns_min * static_cast<double>(r.steps) : r.force_evals; };
  for (const auto& r : s.runs)
    if (r.integrator == integrator && r.status == "ok" && r.global <= target && std::isfinite(cost(r)) &&
        (!best || cost(r) < cost(*best)))
      best = &r;
  return best;
}

}  // namespace report
