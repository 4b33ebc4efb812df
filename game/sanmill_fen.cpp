#include "game/sanmill_fen.h"
