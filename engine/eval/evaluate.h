// Static evaluation: the contract between the search and the evaluation.
//
// An Evaluator belongs to one search thread (it owns caches such as the pawn hash table), so no
// locking is needed. Scores are centipawns from the side to move's point of view and stay well
// inside +-kEvalLimit so they never collide with mate scores.
#pragma once

#include <memory>

namespace outpost {

class Position;

inline constexpr int kEvalLimit = 20000;

class Evaluator {
  public:
    Evaluator();
    ~Evaluator();
    Evaluator(const Evaluator&) = delete;
    Evaluator& operator=(const Evaluator&) = delete;

    // Centipawns for the side to move, for any legal position (also in check).
    int evaluate(const Position& pos);
    void clear();  // forget cached pawn structures (new game)

    // Which evaluation evaluate() uses: the network (eval/nnue.h) or the hand-crafted terms.
    // Without a usable network the hand-crafted one answers.
    void useNetwork(bool on);
    bool usingNetwork() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace outpost
