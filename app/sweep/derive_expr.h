// The expressions of a plan's `derive:` keys (docs/sweep.md, "Derived keys"): numbers (a size
// unit allowed: 1GiB is 1073741824), drive keys (their value at the point), base(KEY) (the value
// in the plan's base drive, before any axis), + - * / and parentheses, evaluated in double
// precision. Only count, size and number keys may be read: a size is its bytes.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ssdlab::sweep {

// The value of `key` at the point (base false) or in the base drive (base true).
using KeyValue = std::function<double(const std::string& key, bool base)>;

// Syntax and keys of `text`; throws std::invalid_argument ("at character N: ...").
void check_expression(const std::string& text);
// The keys `text` reads at the point (not those only read through base()), in order.
std::vector<std::string> expression_keys(const std::string& text);
// The value; throws std::invalid_argument (a division by zero, a syntax error).
double evaluate_expression(const std::string& text, const KeyValue& value);

}  // namespace ssdlab::sweep
