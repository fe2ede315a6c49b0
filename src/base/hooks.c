/*
 * hooks.c - the settings only tests make (hooks.h), all zero: the
 * program's own behaviour.
 */
#include "base/hooks.h"

struct hooks	hooks;
