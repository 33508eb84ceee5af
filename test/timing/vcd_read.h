// A small reader of the Value Change Dumps the instruments write (for tests): the declared
// variables by dotted scope path, and each variable's value per instant (the last change at an
// instant counts; repeats of the value already held are dropped). Fails (REQUIRE) on anything
// outside the subset of IEEE 1364 section 18 the writer uses, and on time going backwards.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ssdlab::test {

using Transitions = std::vector<std::pair<std::uint64_t, std::uint64_t>>;  // (time, value)

struct VcdFile {
  std::string timescale;
  std::map<std::string, unsigned> width;      // by dotted name, e.g. drive.die0.state
  std::map<std::string, Transitions> values;  // first entry: the value at time 0
};

// Appends (time, value) to `t` with last-wins per instant and repeats dropped.
inline void add_transition(Transitions& t, std::uint64_t time, std::uint64_t value) {
  if (!t.empty() && t.back().first == time) {
    t.back().second = value;
    if (t.size() >= 2 && t[t.size() - 2].second == value) t.pop_back();
    return;
  }
  if (!t.empty() && t.back().second == value) return;
  t.emplace_back(time, value);
}

inline VcdFile read_vcd(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  VcdFile vcd;
  std::map<std::string, std::string> name_of;  // identifier code -> dotted name
  std::vector<std::string> scopes;
  std::string word;
  // Header: keyword sections up to $enddefinitions.
  while (in >> word && word != "$enddefinitions") {
    if (word == "$scope") {
      std::string kind, name, end;
      in >> kind >> name >> end;
      REQUIRE(end == "$end");
      scopes.push_back(name);
    } else if (word == "$upscope") {
      in >> word;
      REQUIRE(!scopes.empty());
      scopes.pop_back();
    } else if (word == "$var") {
      std::string type, id, name, end;
      unsigned w = 0;
      in >> type >> w >> id >> name >> end;
      REQUIRE(end == "$end");
      std::string full;
      for (const std::string& s : scopes) full += s + ".";
      full += name;
      REQUIRE(vcd.width.count(full) == 0);
      vcd.width[full] = w;
      name_of[id] = full;
    } else if (word == "$timescale") {
      while (in >> word && word != "$end") vcd.timescale += word;
    } else {
      REQUIRE(word.front() == '$');
      while (in >> word && word != "$end") {}
    }
  }
  REQUIRE(word == "$enddefinitions");
  in >> word;
  REQUIRE(word == "$end");
  REQUIRE(scopes.empty());
  std::uint64_t now = 0;
  bool stamped = false;
  const auto set = [&](const std::string& id, std::uint64_t value) {
    INFO("identifier " << id);
    REQUIRE(name_of.count(id) == 1);
    add_transition(vcd.values[name_of[id]], now, value);
  };
  while (in >> word) {
    if (word == "$dumpvars" || word == "$end") continue;
    if (word[0] == '#') {
      const std::uint64_t t = std::stoull(word.substr(1));
      INFO("time " << t << " after " << now);
      REQUIRE((!stamped || t > now));
      now = t;
      stamped = true;
    } else if (word[0] == 'b') {
      std::string id;
      in >> id;
      std::uint64_t v = 0;
      for (std::size_t i = 1; i < word.size(); ++i) {
        REQUIRE((word[i] == '0' || word[i] == '1'));
        v = v << 1 | std::uint64_t(word[i] == '1');
      }
      set(id, v);
    } else {
      REQUIRE((word[0] == '0' || word[0] == '1'));
      set(word.substr(1), word[0] == '1');
    }
  }
  REQUIRE(stamped);
  return vcd;
}

}  // namespace ssdlab::test
