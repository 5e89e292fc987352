// The readers of results files never crash: 100 000 seeded mutations of real files (results.json as a tree and as
// text, bench.json, samples.csv and energy_long.csv) go through the loaders, and a sample of those that load
// through the gate and the renderer.  Run under ASan + UBSan in CI: any overflow, bad cast or uncaught exception
// other than the readers' own clear errors fails it.  Same seed, same inputs.
#include <catch2/catch.hpp>

#include "tests/reports/results_folder.hpp"
#include "tests/support.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <sstream>
#include <typeinfo>

#include <nlohmann/json.hpp>

#include "study/reader/model.hpp"
#include "reports/render.hpp"
#include "study/check/check.hpp"

namespace fs = std::filesystem;
using Json = nlohmann::json;

nlohmann::json bench_doc(double rk4_ns);  // test_report.cpp: a bench.json as `study bench` writes it

namespace {

const fs::path fixtures = fs::path(HARNESS_SOURCE_DIR) / "tests" / "reports" / "fixture";

/// Values that break careless readers: wrong types, extremes, non-integers where counts go, hostile text.
Json odd_value(std::mt19937_64& rng) {
  static const std::array<Json, 22> pool = {
      Json(nullptr), Json(true), Json(""), Json("x'; touch owned; '"), Json("../../etc"), Json(-1), Json(0), Json(1e308),
      Json(-1e308), Json(1.5), Json(std::numeric_limits<double>::quiet_NaN()), Json(std::numeric_limits<double>::infinity()),
      Json(std::numeric_limits<std::int64_t>::min()), Json(std::numeric_limits<std::uint64_t>::max()), Json(9.3e18),
      Json(2147483648.0), Json::array(), Json::object(), Json::array({1, 2}), Json(std::string(1, '\0')), Json("\n\x01"),
      Json(4.9e-324)};
  return pool[rng() % pool.size()];
}

/// A node picked by a random walk from the root (stopping at each level with probability 1/4, always at a leaf):
/// its parent and its key or index.  Cheaper than listing every node, and it reaches every depth.
struct Place {
  Json* node;
  Json* parent = nullptr;
  std::string key;
  std::size_t index = 0;
  Json::json_pointer path, parent_path;  ///< where they are: an undo must not hold a pointer a later mutation moved
};
Place pick(Json& root, std::mt19937_64& rng) {
  Place p{&root, nullptr, std::string(), 0, Json::json_pointer(), Json::json_pointer()};
  while ((p.node->is_object() || p.node->is_array()) && !p.node->empty() && rng() % 4 != 0) {
    const std::size_t k = rng() % p.node->size();
    Json::json_pointer path = p.path;
    if (p.node->is_object()) {
      auto it = p.node->begin();
      std::advance(it, static_cast<long>(k));
      p = {&it.value(), p.node, it.key(), 0, path / it.key(), path};
    } else {
      p = {&(*p.node)[k], p.node, std::string(), k, path / k, path};
    }
  }
  return p;
}

/// How to undo one mutation, so that every input starts from the same document without copying it.
struct Undo {
  enum Kind { value, key, index, last } kind;
  Json::json_pointer at;  ///< value: the node; key, index: the parent; last: the array grown by one
  std::string name;
  std::size_t position = 0;
  Json saved;
};

/// One to four structural mutations: a value replaced, a key or element removed, an array cut short or grown.
/// Each is logged in `undo`, to be undone in reverse order.
void mutate_tree(Json& doc, std::mt19937_64& rng, std::vector<Undo>& undo) {
  const int n = 1 + static_cast<int>(rng() % 4);
  for (int m = 0; m < n; ++m) {
    const Place p = pick(doc, rng);
    auto replace = [&](Json with) {
      undo.push_back({Undo::value, p.path, {}, 0, std::move(*p.node)});
      *p.node = std::move(with);
    };
    auto erase_element = [&](Json* array, const Json::json_pointer& where, std::size_t i) {
      undo.push_back({Undo::index, where, {}, i, std::move((*array)[i])});
      array->erase(i);
    };
    switch (rng() % 4) {
      case 0: replace(odd_value(rng)); break;
      case 1:
        if (p.parent && p.parent->is_object()) {
          undo.push_back({Undo::key, p.parent_path, p.key, 0, std::move((*p.parent)[p.key])});
          p.parent->erase(p.key);
        } else if (p.parent && p.parent->is_array()) {
          erase_element(p.parent, p.parent_path, p.index);
        }
        break;
      case 2:
        if (p.node->is_array() && !p.node->empty()) erase_element(p.node, p.path, rng() % p.node->size());
        else if (p.node->is_string()) replace(p.node->get<std::string>() + "\x7f/..");
        break;
      default:
        if (p.node->is_array() && !p.node->empty()) {
          p.node->push_back((*p.node)[rng() % p.node->size()]);
          undo.push_back({Undo::last, p.path, {}, 0, {}});
        } else if (p.node->is_number()) {
          replace(-p.node->get<double>() * 1e300);
        }
    }
  }
}

void undo_all(Json& doc, std::vector<Undo>& undo) {
  for (auto u = undo.rbegin(); u != undo.rend(); ++u) {
    Json& at = doc[u->at];
    switch (u->kind) {
      case Undo::value: at = std::move(u->saved); break;
      case Undo::key: at[u->name] = std::move(u->saved); break;
      case Undo::index: at.insert(at.begin() + static_cast<long>(u->position), std::move(u->saved)); break;
      case Undo::last: at.erase(at.size() - 1); break;
    }
  }
  undo.clear();
}

/// The document with every array cut to its first three elements: every kind of field is still there, in a
/// tenth of the nodes (100 000 inputs within CI's time).
Json small(const Json& j) {
  if (j.is_array()) {
    Json out = Json::array();
    for (std::size_t i = 0; i < std::min<std::size_t>(3, j.size()); ++i) out.push_back(small(j[i]));
    return out;
  }
  if (j.is_object()) {
    Json out = Json::object();
    for (const auto& [k, v] : j.items()) out[k] = small(v);
    return out;
  }
  return j;
}

/// Byte-level mutations of a text: flips, cuts, inserted garbage or extreme numbers, a truncated end.
std::string mutate_text(std::string t, std::mt19937_64& rng) {
  static const std::array<std::string, 8> inserts = {"1e999", "-", "\"", ",", "\n", "\r\n", "\"\"", std::string(1, '\0')};
  const int n = 1 + static_cast<int>(rng() % 4);
  for (int m = 0; m < n && !t.empty(); ++m) {
    const std::size_t at = rng() % t.size();
    switch (rng() % 5) {
      case 0: t[at] = static_cast<char>(rng() % 256); break;
      case 1: t.erase(at, 1 + rng() % 64); break;
      case 2: t.insert(at, inserts[rng() % inserts.size()]); break;
      case 3: t.resize(at); break;
      default: t.insert(at, t.substr(rng() % t.size(), 1 + rng() % 32));
    }
  }
  return t;
}

/// The first `lines` lines of a file: small inputs keep 100 000 of them within CI's time.
std::string head(const fs::path& file, int lines) {
  std::istringstream in(testing::read_file(file));
  std::string out, line;
  for (int i = 0; i < lines && std::getline(in, line); ++i) out += line + "\n";
  return out;
}

/// Every field of every row read as a number and as text, as the renderer's plots do.
void read_every_field(const report::Table& t) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    for (const auto& name : t.header) {
      (void)t.text(r, name);
      try {
        (void)t.number(r, name);
      } catch (const report::ReportError&) {
      }
    }
}

}  // namespace

TEST_CASE("the loaders never crash: 100 000 mutated results, bench and CSV files give a result or a clear error",
          "[report][fuzz][hardening]") {
  std::mt19937_64 rng(20261123);
  const Json results = small(Json::parse(testing::read_file(fixtures / "results.json")));
  const std::string results_text = results.dump();
  const Json bench = bench_doc(35.0);
  const std::array<std::string, 2> csvs = {head(fixtures / "fixture" / "samples.csv", 40),
                                           head(fixtures / "fixture" / "energy_long.csv", 40)};
  testing::TempDir dir("fuzz");
  // Unmutated, each seed loads: the refusals below come from the mutations.
  REQUIRE_NOTHROW(report::load_document(results, "fuzz/results.json", dir.path));
  REQUIRE_NOTHROW(report::load_bench_document(bench, "fuzz/bench.json"));
  for (const auto& csv : csvs) {
    std::istringstream in(csv);
    REQUIRE(report::parse_table(in, "fuzz/samples.csv").rows.size() == 39);
  }
  long inputs = 0, refused = 0, loaded = 0, rendered = 0;
  std::string unexpected;  // the first input that failed otherwise than with a ReportError
  auto guard = [&](const std::string& what, const auto& body) {
    ++inputs;
    try {
      body();
    } catch (const report::ReportError&) {
      ++refused;
    } catch (const std::exception& e) {
      if (unexpected.empty()) unexpected = what + ": " + typeid(e).name() + ": " + e.what();
    }
  };
  // Results as a tree: the loader, and for one in 200 of those that load, the gate and the renderer.
  Json doc = results;
  std::vector<Undo> undo;
  for (int i = 0; i < 56000; ++i) {
    undo_all(doc, undo);
    mutate_tree(doc, rng, undo);
    guard("results tree " + std::to_string(i), [&] {
      const report::Results r = report::load_document(doc, "fuzz/results.json", dir.path);
      ++loaded;
      if (loaded % 500 == 0) {
        testing::TempDir case_dir("fuzz-case");
        testing::write_results(case_dir.path, doc);  // with the tables it describes
        report::Options o;
        o.results = o.out = case_dir.path;
        o.plots = false;
        (void)report::render(o);
        (void)check::run_checks(report::load(case_dir.path), nullptr);
        ++rendered;
      }
    });
  }
  // Results as text: the JSON parser's errors (and numbers out of range) named with the file.
  for (int i = 0; i < 4000; ++i) {
    const std::string text = mutate_text(results_text, rng);
    guard("results text " + std::to_string(i), [&] {
      Json parsed;
      try {
        parsed = Json::parse(text);
      } catch (const Json::exception&) {
        ++refused;
        return;
      }
      (void)report::load_document(parsed, "fuzz/results.json", dir.path);
    });
  }
  dir.file("results.json", results_text);
  CHECK_THROWS_WITH(report::load(dir.path / "nowhere"), Catch::Contains("no results file"));
  dir.file("results.json", results_text.substr(0, 100) + "1e999" + results_text.substr(100));
  CHECK_THROWS_AS(report::load(dir.path), report::ReportError);
  // bench.json as a tree.
  undo_all(doc, undo);
  CHECK(doc == results);  // every mutation was undone: each input was one to four mutations of the seed
  Json bench_mutated = bench;
  for (int i = 0; i < 10000; ++i) {
    undo_all(bench_mutated, undo);
    mutate_tree(bench_mutated, rng, undo);
    guard("bench tree " + std::to_string(i), [&] { (void)report::load_bench_document(bench_mutated, "fuzz/bench.json"); });
  }
  undo_all(bench_mutated, undo);
  CHECK(bench_mutated == bench);
  // The CSV tables as text, every field read.
  for (int i = 0; i < 30000; ++i) {
    const std::string text = mutate_text(csvs[i % 2], rng);
    guard("csv " + std::to_string(i), [&] {
      std::istringstream in(text);
      read_every_field(report::parse_table(in, "fuzz/samples.csv"));
    });
    if (i % 1000 == 0)  // through the renderer's plots, beside the fixture's results.json
      guard("csv in a report " + std::to_string(i), [&] {
        testing::TempDir case_dir("fuzz-csv");
        case_dir.file("results.json", results_text);
        fs::copy(fixtures / "fixture", case_dir.path / "fixture");  // the fixture's tables, one replaced
        fs::remove(case_dir.path / (i % 2 ? "fixture/energy_long.csv" : "fixture/samples.csv"));
        case_dir.file(i % 2 ? "fixture/energy_long.csv" : "fixture/samples.csv", text);
        report::Options o;
        o.results = o.out = case_dir.path;
        o.plots = false;
        (void)report::render(o);
        ++rendered;
      });
  }
  INFO(fmt::format("{} inputs: {} refused with a clear error, {} results loaded, {} rendered and checked", inputs, refused,
                   loaded, rendered));
  INFO(unexpected);
  CHECK(unexpected.empty());
  CHECK(inputs == 100030);  // and 30 of the CSV inputs rendered too
  // The mutations reach both outcomes: most inputs are refused, many still load (the fuzz is not all noise).
  CHECK(refused > inputs / 4);
  CHECK(loaded > 5000);
  CHECK(rendered > 20);
}
