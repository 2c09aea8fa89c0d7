#include "viz/draw_tm.hpp"
