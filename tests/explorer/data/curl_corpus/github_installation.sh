# source: https://zenn.dev/ishikawa_t/scraps/bda31dfd7103bd
curl -H "Authorization: token ${JIT}" \
-H "Accept: application/vnd.github+json" \
https://api.github.com/installation/repositories
