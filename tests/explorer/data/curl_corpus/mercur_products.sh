# source: https://docs.mercurjs.com/rc/references/api/admin/products/create-product
curl -X POST 'http://localhost:9000/admin/products' \
  -H 'Authorization: Bearer <token>' \
  -H 'Content-Type: application/json' \
  -d '{
    "title": "Linen Shirt",
    "seller_ids": ["sel_01HXYZABCDEF"],
    "options": [{ "title": "Size", "values": ["S", "M"] }],
    "variants": [
      { "title": "S", "sku": "LS-S", "options": { "Size": "S" } },
      { "title": "M", "sku": "LS-M", "options": { "Size": "M" } }
    ],
    "attributes": [{ "title": "Material", "type": "single_select", "values": ["Linen"] }]
  }'
