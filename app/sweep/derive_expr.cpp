#include "app/sweep/derive_expr.h"

#include <cctype>
#include <cmath>
#include <stdexcept>

#include "base/config/config_yaml.h"
#include "base/config/params.h"
#include "base/core/units.h"

namespace ssdlab::sweep {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// Recursive descent over the text, evaluating as it goes; `value` null: syntax and keys only.
class Expression {
 public:
  Expression(const std::string& text, const KeyValue* value) : m_text(text), m_value(value) {}

  double run() {
    const double v = sum();
    skip_space();
    if (m_pos != m_text.size()) fail(std::string("unexpected '") + m_text[m_pos] + "'");
    return v;
  }
  std::vector<std::string> keys;

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw std::invalid_argument("at character " + std::to_string(m_pos + 1) + " of '" + m_text + "': " + message);
  }
  void skip_space() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }
  bool take(char c) {
    skip_space();
    if (m_pos < m_text.size() && m_text[m_pos] == c) return ++m_pos, true;
    return false;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (take('+')) {
        v += product();
      } else if (take('-')) {
        v -= product();
      } else {
        return v;
      }
    }
  }
  double product() {
    double v = unary();
    for (;;) {
      if (take('*')) {
        v *= unary();
      } else if (take('/')) {
        skip_space();
        const std::size_t at = m_pos;
        const double d = unary();
        if (m_value && d == 0) {
          m_pos = at;
          fail("division by zero");
        }
        v = m_value ? v / d : v;
      } else {
        return v;
      }
    }
  }
  double unary() {
    if (take('-')) return -unary();
    if (take('(')) {
      const double v = sum();
      if (!take(')')) fail("expected ')'");
      return v;
    }
    skip_space();
    if (m_pos == m_text.size()) fail("expected a number, a key or '('");
    if (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '.') return number();
    return key();
  }
  double number() {
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() && (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '.'))
      ++m_pos;
    while (m_pos < m_text.size() && std::isalpha(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;  // a unit
    const std::string token = m_text.substr(start, m_pos - start);
    double v = 0;
    if (config_detail::parse_plain_double(token, v)) return v;
    try {
      return double(parse_size(token));
    } catch (const std::invalid_argument&) {
      m_pos = start;
      fail("'" + token + "' is neither a number nor a size (4KiB, 1GiB, 30GB)");
    }
  }
  double key() {
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() && name_char(m_text[m_pos])) ++m_pos;
    const std::string name = m_text.substr(start, m_pos - start);
    if (name.empty()) fail(std::string("unexpected '") + m_text[m_pos] + "'");
    if (name == "base" && take('(')) {
      skip_space();
      const std::size_t key_start = m_pos;
      while (m_pos < m_text.size() && name_char(m_text[m_pos])) ++m_pos;
      const std::string inner = m_text.substr(key_start, m_pos - key_start);
      check_key(inner, key_start);
      if (!take(')')) fail("expected ')' after base(" + inner);
      return m_value ? (*m_value)(inner, true) : 1.0;
    }
    check_key(name, start);
    keys.push_back(name);
    return m_value ? (*m_value)(name, false) : 1.0;
  }
  void check_key(const std::string& name, std::size_t at) {
    const Param* p = find_param(drive_params(), name);
    if (p == nullptr) {
      std::vector<std::string> names;
      for (const Param& q : drive_params()) names.push_back(q.path);
      m_pos = at;
      fail("'" + name + "' is not a drive config key" + config_detail::did_you_mean(name, names));
    }
    if (p->kind != ParamKind::kCount && p->kind != ParamKind::kSize && p->kind != ParamKind::kNumber) {
      m_pos = at;
      fail("'" + name + "' is not a number (its kind: " + to_string(p->kind) +
           "); expressions read count, size and number keys");
    }
  }

  const std::string& m_text;
  const KeyValue* m_value;
  std::size_t m_pos = 0;
};

}  // namespace

void check_expression(const std::string& text) { Expression(text, nullptr).run(); }

std::vector<std::string> expression_keys(const std::string& text) {
  Expression e(text, nullptr);
  e.run();
  return e.keys;
}

double evaluate_expression(const std::string& text, const KeyValue& value) {
  const double v = Expression(text, &value).run();
  if (!std::isfinite(v)) throw std::invalid_argument("'" + text + "' is not finite");
  return v;
}

}  // namespace ssdlab::sweep
