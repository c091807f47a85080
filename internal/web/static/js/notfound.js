// notfound.js: the 404 page, in the reader's language.

import { setup } from "./i18n.js";

setup(() => {});
