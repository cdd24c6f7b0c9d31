# source: https://reference.jetti.io/operation/operation-post-products-json
curl \
 --request POST 'http://api.example.com/v1/products.json' \
 --header "Authorization: Bearer $ACCESS_TOKEN" \
 --header "Content-Type: application/json" \
 --data '{"handle":"string","name":"string","vendor":"string"}'
