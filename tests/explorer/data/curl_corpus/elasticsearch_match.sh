# source: https://elastic.co/guide/en/elasticsearch/client/php-api/6.x/_match_query.html
curl -XGET 'localhost:9200/my_index/my_type/_search' -d '{
    "query" : {
        "match" : {
            "testField" : "abc"
        }
    }
}'
