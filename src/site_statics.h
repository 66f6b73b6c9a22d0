/* site_statics: the files a build copies as they are: the theme's assets,
 * content/'s static files, then the site's own static/ folder. Level 5,
 * beside site.c. */
#ifndef SSG_SITE_STATICS_H
#define SSG_SITE_STATICS_H

#include "diag.h"
#include "model.h"
#include "output.h"
#include "render.h"

/* Copy them into out; made: the paths the build wrote itself (pages, data
 * files). A file of content/ never replaces one of those, nor a theme asset
 * (content/assets/site.js replaced the site's script, content/index.html
 * the home page): content comes from pull requests, and such a file gets a
 * warning in d instead. static/ is the maintainers' and may. Returns how
 * many files were copied. */
size_t site_copy_statics(struct site *s, struct output *out, struct template_source *ts,
			 const char *const *made, size_t nmade, struct diags *d);

#endif
