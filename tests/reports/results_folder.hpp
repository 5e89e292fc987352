#pragma once
/// A results folder written from a results.json document edited by a test: results.json, and beside it the tables
/// study run writes with it (runs.csv from the document's runs, as study/results/write.cpp formats them; a
/// samples.csv and an energy_long.csv of a header alone where the folder has none), so that the loader's rule
/// "the tables are there and say what results.json says" holds for a hand-edited document.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace testing {

inline void write_results(const std::filesystem::path& dir, const nlohmann::json& doc) {
  namespace fs = std::filesystem;
  std::ofstream(dir / "results.json") << doc.dump();
  auto num = [](const nlohmann::json& j) -> std::string {
    if (!j.is_number()) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", j.get<double>());
    return buf;
  };
  auto at = [](const nlohmann::json& j, const char* a, const char* b) {
    return j.is_object() && j.contains(a) && j[a].is_object() && j[a].contains(b) ? j[a][b] : nlohmann::json();
  };
  if (!doc.contains("studies") || !doc["studies"].is_array()) return;
  for (const auto& s : doc["studies"]) {
    if (!s.is_object() || !s.contains("name") || !s["name"].is_string()) continue;
    const fs::path sub = dir / s["name"].get<std::string>();
    const bool runs = s.contains("runs") && s["runs"].is_array() && !s["runs"].empty();
    const bool energy = s.contains("energy_long") && s["energy_long"].is_array() && !s["energy_long"].empty();
    if (runs || energy) fs::create_directories(sub);
    if (runs) {
      std::ofstream csv(sub / "runs.csv");
      csv << "integrator,dt,steps,status,global\n";  // the columns the loader compares; others are optional
      auto field = [](const nlohmann::json& r, const char* key) {  // a fuzzed document may hold anything anywhere
        return r.is_object() && r.contains(key) ? r[key] : nlohmann::json();
      };
      auto text = [&](const nlohmann::json& r, const char* key) {
        const nlohmann::json j = field(r, key);
        return j.is_string() ? j.get<std::string>() : std::string();
      };
      for (const auto& r : s["runs"])
        csv << text(r, "integrator") << ',' << num(field(r, "dt")) << ',' << (field(r, "steps").is_number() ? field(r, "steps").dump() : "")
            << ',' << text(r, "status") << ',' << num(at(r, "error", "global")) << '\n';
      if (!fs::exists(sub / "samples.csv")) std::ofstream(sub / "samples.csv") << "integrator,dt,t,error,energy_rel\n";
    }
    if (energy && !fs::exists(sub / "energy_long.csv")) std::ofstream(sub / "energy_long.csv") << "integrator,dt,t,energy_rel\n";
  }
}

}  // namespace testing
