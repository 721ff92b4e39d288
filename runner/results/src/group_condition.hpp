// Whether a scenario meets the condition under which switch-group inference is guaranteed to
// find every switch (docs/tree-inference.md, "When group inference is right"). Ground truth:
// only the runner calls it, to tell a sweep which wrong answers are defects.
#pragma once

#include <string>

namespace tsunagi::scenario {
struct Scenario;
}

namespace tsunagi::runner {

struct GroupCondition {
  bool holds = false;
  std::string why;  // "holds", the first switch that breaks it and how, or why not computed
};

GroupCondition group_condition(const scenario::Scenario& scenario);

}  // namespace tsunagi::runner
