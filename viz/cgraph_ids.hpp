// A deterministic cgraph ID discipline. cgraph's default one maps a name to the address of its
// interned string, and agwrite and the dot layout visit subgraphs in ID order: with the default,
// the order of clusters and rank groups — so the DOT text and the picture — changed from one
// drawing to the next within a process (a second draw_circuit call from Python) and between
// runs. This one numbers names in creation order (even IDs, as cgraph expects of named objects;
// odd ones for anonymous objects), so subgraphs are visited in the order they were created.
#pragma once

#include <graphviz/cgraph.h>

namespace rnncc {

// The discipline to pass to agopen (memory and I/O as cgraph's defaults). Each graph opened
// with it keeps its own numbering, released by agclose.
Agdisc_t* deterministic_cgraph_disc();

}  // namespace rnncc
