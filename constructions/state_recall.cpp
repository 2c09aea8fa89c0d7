#include "constructions/state_recall.hpp"
