# source: https://edrus.gitbook.io/appgregator-api-docs/appgregators/payment-gateway/stripe/api/customers/create-a-customer
curl --location --request PUT 'https://us-central1-appgregator.cloudfunctions.net/stripe/customers/cus_LtLicgvX1EQaV8?name=ft-4&connection_name=stripe-1' \
--header 'x-api-key: XXX' \
--header 'Content-Type: application/json' \
--data-raw '{
"balance": 18000,
"address[city]": "New York",
"address[country]": "USA",
"address[line1]": "jl.xxxx",
"description": "test only"
}'
