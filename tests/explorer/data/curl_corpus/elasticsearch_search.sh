# source: https://gist.github.com/sjb9774/152fb76512539dd5b45e273060470f44
curl $ES_HOST:$ES_PORT/$ES_INDEX/_search -H 'Content-type: application/json' -X POST -d '{"query":{"bool":{"must":[{"term":{"indexed_attribute_code":{"value":"attribute_value","boost":1.00}}}]}}}' | jq .
