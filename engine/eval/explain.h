// The evaluation taken apart by term, for people (the UCI `eval` command) and for looking into
// positions the engine misjudges. Built on the tuner's trace, so it shows exactly what the
// evaluation added up, weight group by weight group.
#pragma once

#include <string>
#include <vector>

namespace outpost {
class Position;
}

namespace outpost::eval {

// One weight group's share of the score, White's view, in centipawns (White minus Black).
struct TermShare {
    std::string name;  // the member of Weights (weights.h)
    double mg = 0;
    double eg = 0;
    double blended = 0;  // mg and eg blended by the phase, eg scaled: its share of the score
};

struct Explanation {
    std::vector<TermShare> terms;  // groups that contributed, in declaration order
    int phase = 0;                 // of kPhaseMax
    int scale = 0;                 // endgame scale, of kScaleNormal
    int whiteScore = 0;            // the evaluation, White's view
    int moverScore = 0;            // the evaluation, the side to move's view (what the search uses)
};

Explanation explain(const Position& pos);

// A table of the terms, then phase, scale and the totals.
std::string formatExplanation(const Explanation& explanation);

}  // namespace outpost::eval
