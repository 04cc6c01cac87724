// The name the first UCI loop had (kept for its tests): the loop is uci/uci_loop.h.
#pragma once

#include "uci/uci_loop.h"

namespace outpost {

using UciLoop = uci::UciLoop;

}  // namespace outpost
