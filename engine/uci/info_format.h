// Text of the UCI lines the engine sends: `info ...` per iteration and `bestmove ...`.
#pragma once

#include <string>

#include "engine.h"

namespace outpost::uci {

// "info depth D seldepth S multipv M score cp X [lowerbound|upperbound] nodes N nps N hashfull H
//  time T pv ..."
std::string formatInfo(const SearchInfo& info);

// "info depth D currmove M currmovenumber N"
std::string formatCurrMove(const std::string& move, int number, int depth);

// "bestmove M ponder P". The ponder move comes from the result, else from the second move of the
// principal variation; `fallbackPonder` (any legal reply) is used when both are missing, so the
// line always carries one when the position after the best move has a legal reply.
std::string formatBestMove(const SearchResult& result, const std::string& fallbackPonder = {});

// The ponder move the result itself offers (empty if none).
std::string ponderFromResult(const SearchResult& result);

}  // namespace outpost::uci
