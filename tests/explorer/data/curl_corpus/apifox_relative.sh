# source: https://docs.yobopay.com/270103167e0 (a generated sample whose URL is only a path)
curl --location --request POST '/v1/customers' \
--header 'Content-Type: application/json' \
--data-raw '{
"email": "string",
"name": "string",
"description": "string"
}'
