#!/usr/bin/env bash
# Start every framework (installed by install.sh), record its answers into ../fixtures,
# and stop them. Run from the worktree root: tests/explorer/wild/recorders/record_all.sh
set -euo pipefail
W="${RESTWALK_WILD:-$HOME/.cache/restwalk-wild}"
R="$(cd "$(dirname "$0")" && pwd)"
PY="${PYTHON:-.venv/bin/python}"
H=http://localhost
pids=()
start() { "$@" >"$W/$(basename "$1").$RANDOM.log" 2>&1 & pids+=($!); }
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
start "$W/drf/bin/python" "$R/drf_site/serve.py" plain 18101
start "$W/drf/bin/python" "$R/drf_site/serve.py" jsonapi 18102
start "$W/halvenv/bin/python" "$R/drf_site/serve.py" hal 18103
(cd "$W/halson" && exec node halson_app.js 18201) & pids+=($!)
(cd "$W/siren" && exec node siren_app.js 18202) & pids+=($!)
(cd "$W/odata" && exec node odata_app.js 18203) & pids+=($!)
(cd "$W/js017" && exec node_modules/.bin/json-server --port 18301 db.json) >/dev/null & pids+=($!)
(cd "$W/js1" && exec node_modules/.bin/json-server --port 18302 db.json) >/dev/null & pids+=($!)
start "$W/eve/bin/python" "$R/eve_app.py" 18401
start "$W/httpbin/bin/python" -m httpbin.core --host 127.0.0.1 --port 18501
start "$W/tastypie/bin/python" "$R/tastypie_site/serve.py" 18601
start "$W/ninja/bin/python" "$R/ninja_site/serve.py" 18602
start "$W/fapag/bin/python" "$R/fastapi_pagination_app.py" 18603
start "$W/smorest/bin/python" "$R/flask_smorest_app.py" 18604
start "$W/litestar/bin/python" "$R/litestar_app.py" 18605
start "$W/hypermodel/bin/python" "$R/fastapi_hypermodel_app.py" url_for 18606
start "$W/hypermodel/bin/python" "$R/fastapi_hypermodel_app.py" hal 18607
sleep 10
rec() { "$PY" "$R/record.py" "$@"; }
rec drf-plain "djangorestframework 3.18.3 (Django 5.2.19)" $H:18101/ $H:18101/books/ \
  "$H:18101/books/?page=2" "$H:18101/books/?page=3" $H:18101/books/11/ "$H:18101/authors/?limit=2" \
  "$H:18101/authors/?limit=2&offset=2" $H:18101/authors/1/ \
  --note "DefaultRouter; HyperlinkedModelSerializer; PageNumberPagination (PAGE_SIZE 10) on books, LimitOffsetPagination on authors; default renderers"
rec drf-jsonapi "djangorestframework-jsonapi 8.1.0 (djangorestframework 3.18.3, Django 5.2.19)" \
  $H:18102/ $H:18102/books/ "$H:18102/books/?page%5Bnumber%5D=2" "$H:18102/books/?page%5Bnumber%5D=3" $H:18102/books/11/ \
  $H:18102/books/11/author --accept application/vnd.api+json \
  --note "DefaultRouter; HyperlinkedModelSerializer with ResourceRelatedField (related and relationship links); JsonApiPageNumberPagination (PAGE_SIZE 10); settings as its docs' Usage section"
rec drf-hal-json "drf-hal-json 0.10.0 (djangorestframework 3.18.3, Django 5.2.19)" $H:18103/ \
  $H:18103/books/ "$H:18103/books/?page=2" "$H:18103/books/?page=3" $H:18103/books/11/ $H:18103/authors/1/ \
  --accept application/hal+json \
  --note "DefaultRouter; HalModelSerializer; HalPageNumberPagination (PAGE_SIZE 10); renderer and parser as its README"
EID=$(curl -s "$H:18401/books?page=2" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["_items"][0]["_links"]["self"]["href"])')
rec eve "Eve 2.3.1 (Flask 3.1.3; mongomock 4.3.0 for MongoDB)" $H:18401/ $H:18401/books \
  "$H:18401/books?page=2" "$H:18401/books?page=3" "$H:18401/$EID" $H:18401/authors \
  --note "DOMAIN books (author: objectid data_relation to authors) and authors; Eve defaults but PAGINATION_DEFAULT 10; MongoDB replaced by mongomock (no mongod installable here)"
rec json-server-0.17 "json-server 0.17.4" $H:18301/ $H:18301/books \
  "$H:18301/books?_page=1&_limit=10" "$H:18301/books?_page=2&_limit=10" \
  "$H:18301/books?_page=3&_limit=10" $H:18301/books/11 $H:18301/authors/3/books \
  --note "db.json with books and authors; defaults; pagination by _page and _limit; /authors/3/books is a nested route (its items live at /books/{id}: /authors/3/books/3 is a 404)"
rec json-server-1 "json-server 1.0.0-beta.3" $H:18302/ $H:18302/books \
  "$H:18302/books?_page=1&_per_page=10" "$H:18302/books?_page=2&_per_page=10" \
  "$H:18302/books?_page=3&_per_page=10" $H:18302/books/11 \
  --note "db.json with books and authors; defaults; pagination by _page and _per_page"
rec halson "halson 3.2.0 (express 5.x)" $H:18201/ $H:18201/books "$H:18201/books?page=2" \
  "$H:18201/books?page=3" \
  $H:18201/books/11 $H:18201/authors/1 \
  --note "express app built with halson's addLink/addEmbed (halson_app.js)"
rec siren-writer "siren-writer 0.5.0 (express 5.x)" $H:18202/ $H:18202/books \
  "$H:18202/books?page=2" "$H:18202/books?page=3" $H:18202/books/11 $H:18202/authors $H:18202/authors/1 $H:18202/orders/42 \
  --note "express app built with siren-writer (siren_app.js); URI relations under http://x.io/rels/; /orders/42 is the Siren homepage example from siren-writer's README"
rec odata-v4-server "odata-v4-server 0.2.13" $H:18203/odata/ "$H:18203/odata/Books" \
  "$H:18203/odata/Books?\$top=10" "$H:18203/odata/Books?\$top=10&\$skip=10" \
  "$H:18203/odata/Books(11)" "$H:18203/odata/Authors" \
  --note "odata_app.js: Books and Authors entity sets (Edm.Key Id), minimal metadata; paging only by \$skip/\$top (the server writes no @odata.nextLink)"
rec httpbin "httpbin 0.10.4 (Flask 3.1.3)" $H:18501/ $H:18501/links/10 $H:18501/links/10/0 $H:18501/links/10/1 \
  $H:18501/json $H:18501/get $H:18501/relative-redirect/2 $H:18501/absolute-redirect/1 \
  --note "python -m httpbin.core, defaults"
rec tastypie "django-tastypie 0.15.1 (Django 5.2.19)" $H:18601/api/v1/ $H:18601/api/v1/book/ \
  "$H:18601/api/v1/book/?limit=10&offset=10" "$H:18601/api/v1/book/?limit=10&offset=20" \
  $H:18601/api/v1/book/11/ $H:18601/api/v1/author/1/ $H:18601/api/v1/book/schema/ \
  --note "tastypie_site: Api(api_name='v1') with ModelResources book (author a ForeignKey field) and author, limit = 10 in Meta (default 20); default serializer"
rec django-ninja "django-ninja 1.7.1 (Django 5.2.19, pydantic 2.14.4)" $H:18602/api/books \
  "$H:18602/api/books?limit=10&offset=10" "$H:18602/api/books?limit=10&offset=20" \
  $H:18602/api/pages/books "$H:18602/api/pages/books?page=1" \
  "$H:18602/api/pages/books?page=2&page_size=10" "$H:18602/api/pages/books?page=3&page_size=10" \
  $H:18602/api/cursor/books "$H:18602/api/cursor/books?cursor=cD0xMQ%3D%3D" \
  "$H:18602/api/cursor/books?cursor=cD0yMQ%3D%3D" $H:18602/api/books/11 $H:18602/api/ \
  --note "ninja_site: NinjaAPI at /api/ (no root: /api/ is Django's 404); @paginate with NINJA_PAGINATION_PER_PAGE 10: LimitOffsetPagination (the default) on /api/books, PageNumberPagination on /api/pages/books, CursorPagination on /api/cursor/books"
rec fastapi-pagination "fastapi-pagination 0.16.1 (FastAPI 0.165.0, Starlette 1.10.0)" \
  $H:18603/books "$H:18603/books?page=2" "$H:18603/books?page=3" \
  $H:18603/pages/books "$H:18603/pages/books?page=2" "$H:18603/pages/books?page=3" \
  $H:18603/offsets/books "$H:18603/offsets/books?offset=10" "$H:18603/offsets/books?offset=20" \
  $H:18603/headers/books "$H:18603/headers/books?page=2" "$H:18603/headers/books?page=3" \
  $H:18603/books/11 $H:18603/ \
  --note "fastapi_pagination_app.py: add_pagination and paginate() over 25 books, size/limit 10 by UseParamsFields; links.Page on /books, Page on /pages/books, links.LimitOffsetPage on /offsets/books, Page with UseHeaderLinks on /headers/books; no root (/ is a 404)"
rec flask-smorest "flask-smorest 0.47.0 (Flask 3.1.3, marshmallow 4.4.0)" $H:18604/books/ \
  "$H:18604/books/?page=2" "$H:18604/books/?page=3" $H:18604/books/11 $H:18604/ \
  --note "flask_smorest_app.py: a Blueprint with @blp.paginate() (defaults: page and page_size, 10 a page; paging only in X-Pagination); no root (/ is a 404)"
rec litestar "litestar 2.25.0 (uvicorn 0.55.0)" $H:18605/books "$H:18605/books?limit=10&offset=10" \
  "$H:18605/books?limit=10&offset=20" $H:18605/pages/books "$H:18605/pages/books?current_page=2" \
  "$H:18605/pages/books?current_page=3" $H:18605/cursor/books "$H:18605/cursor/books?cursor=11" \
  "$H:18605/cursor/books?cursor=21" $H:18605/books/11 $H:18605/ \
  --note "litestar_app.py: AbstractSyncOffsetPaginator (limit, offset) on /books, AbstractSyncClassicPaginator (page_size, current_page) on /pages/books, AbstractSyncCursorPaginator (cursor, results_per_page) on /cursor/books, query parameters named as in Litestar's docs; no root (/ is a 404)"
rec fastapi-hypermodel "fastapi-hypermodel 2.1.0 (FastAPI 0.165.0)" $H:18606/items $H:18606/items/item01 \
  $H:18606/people $H:18606/people/person01 $H:18607/items $H:18607/items/item01 $H:18607/people \
  $H:18607/people/person01 \
  --note "fastapi_hypermodel_app.py: its repository's v2.1.0 examples (GET routes): url_for (UrlFor fields, plain JSON) on 18606, hal (HALHyperModel, curies) on 18607; its HAL collections drop the aliased sc:items list"
