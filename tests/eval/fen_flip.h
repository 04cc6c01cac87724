// Colour-flipping a FEN: the board mirrored top to bottom with the colours swapped, the other
// side to move, castling rights and en-passant square swapped accordingly.
#pragma once

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

namespace outpost::testing {

inline std::string flipFen(const std::string& fen) {
    std::istringstream in(fen);
    std::string board, side, castling, ep, rest;
    in >> board >> side >> castling >> ep;
    std::getline(in, rest);

    std::vector<std::string> ranks;
    std::stringstream bs(board);
    for (std::string r; std::getline(bs, r, '/');) ranks.push_back(r);
    std::reverse(ranks.begin(), ranks.end());
    std::string flipped;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i) flipped += '/';
        for (char ch : ranks[i])
            flipped += std::isupper(static_cast<unsigned char>(ch))
                           ? char(std::tolower(static_cast<unsigned char>(ch)))
                           : char(std::toupper(static_cast<unsigned char>(ch)));
    }
    std::string castle;
    if (castling == "-") {
        castle = "-";
    } else {
        // Swap case, then order as KQkq.
        std::string swapped;
        for (char ch : castling)
            swapped += std::isupper(static_cast<unsigned char>(ch))
                           ? char(std::tolower(static_cast<unsigned char>(ch)))
                           : char(std::toupper(static_cast<unsigned char>(ch)));
        for (char want : std::string("KQkq"))
            if (swapped.find(want) != std::string::npos) castle += want;
    }
    std::string epFlipped = ep;
    if (ep != "-") epFlipped[1] = ep[1] == '3' ? '6' : '3';
    return flipped + " " + (side == "w" ? "b" : "w") + " " + castle + " " + epFlipped + rest;
}

}  // namespace outpost::testing
