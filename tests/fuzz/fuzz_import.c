// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_import: an export document (doc/export.md) as `import`, `show
 * FILE` and compare read one: json_loadb() with duplicate keys refused,
 * export_validate(), export_upgrade(), then run_from_export() into the
 * run model, which is freed.
 */
#include <jansson.h>

#include "fuzz.h"
#include "model/run.h"
#include "store/store.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *doc;
	struct run r;

	doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &err);
	if (!doc)
		return 0;
	error_mute(1);
	if (!export_validate(doc, "fuzz.json")) {
		export_upgrade(doc);
		if (!run_from_export(doc, "fuzz.json", &r))
			run_free(&r);
	}
	error_mute(0);
	json_decref(doc);
	return 0;
}
