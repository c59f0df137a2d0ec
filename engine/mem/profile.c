/* profile.c -- the profiles' names (the knobs are in profile.h). */
#include <string.h>

#include "profile.h"

const char *wl_profile_name(int profile) {
  return profile >= 0 && profile < WL_NPROFILES ? wl__profile_words[profile]
                                                : NULL;
}

int wl_profile_find(const char *name) {
  int i;
  if (name == NULL)
    return -1;
  for (i = 0; i < WL_NPROFILES; i++)
    if (strcmp(name, wl__profile_words[i]) == 0)
      return i;
  return -1;
}
