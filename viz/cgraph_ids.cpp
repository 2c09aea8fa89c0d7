#include "viz/cgraph_ids.hpp"

#include <map>
#include <string>
#include <vector>

namespace rnncc {

namespace {

// Names are interned in the graph's string pool (agstrdup): agwrite reads the pool's header of
// the string print returns (to tell HTML labels apart). agclose frees the pool.
struct IdState {
  Agraph_t* graph = nullptr;
  std::map<std::string, IDTYPE> ids;
  std::vector<char*> names;  // names[id / 2 - 1]
  IDTYPE anonymous = 1;
};

void* id_open(Agraph_t* g, Agdisc_t*) {
  auto* s = new IdState;
  s->graph = g;
  return s;
}

long id_map(void* state, int, char* str, IDTYPE* id, int createflag) {
  auto* s = static_cast<IdState*>(state);
  if (str == nullptr) {  // an anonymous object: the next odd ID
    *id = s->anonymous;
    s->anonymous += 2;
    return 1;
  }
  const auto it = s->ids.find(str);
  if (it != s->ids.end()) {
    *id = it->second;
    return 1;
  }
  if (!createflag) return 0;
  s->names.push_back(agstrdup(s->graph, str));
  *id = static_cast<IDTYPE>(2 * s->names.size());
  s->ids.emplace(str, *id);
  return 1;
}

long id_alloc(void*, int, IDTYPE) {
  return 1;
}

void id_free(void*, int, IDTYPE) {}

char* id_print(void* state, int, IDTYPE id) {
  auto* s = static_cast<IdState*>(state);
  if (id % 2 != 0 || id == 0 || id / 2 > s->names.size()) return nullptr;
  return s->names[id / 2 - 1];
}

void id_close(void* state) {
  delete static_cast<IdState*>(state);
}

void id_register(void*, int, void*) {}

Agiddisc_t kIdDisc = {id_open, id_map, id_alloc, id_free, id_print, id_close, id_register};
Agdisc_t kDisc = {&AgMemDisc, &kIdDisc, &AgIoDisc};

}  // namespace

Agdisc_t* deterministic_cgraph_disc() {
  return &kDisc;
}

}  // namespace rnncc
