# source: https://gist.github.com/seb-martin/00e32acad959ba003bff (Elasticsearch getting started)
curl -XPOST 'localhost:9200/bank/account/_bulk?pretty' --data-binary "@accounts.json"
