# source: https://docs.github.com/en/enterprise-cloud@latest/rest/quickstart?tool=curl
curl --request GET \
--url "https://api.github.com/repos/octocat/Spoon-Knife/issues" \
--header "Accept: application/vnd.github+json" \
--header "Authorization: Bearer YOUR-TOKEN"
