/* The search on sets of 128 bits: boards of more than 64 lines (`_search.h`). */
#define W 128
#include "_search.h"
