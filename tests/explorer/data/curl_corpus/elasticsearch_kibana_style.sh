# source: https://blog.csdn.net/Eazon_chan/article/details/109799710
curl -X GET 'http://localhost:9200/kareza/_search?pretty=true' -H 'Content-Type: application/json' -d '
{
"query" : {
"match" : { "user.id": "ycy" }
}
}'
