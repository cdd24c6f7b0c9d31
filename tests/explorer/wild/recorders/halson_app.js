// An express app that answers in HAL built with halson, as its README shows.
// Run: node halson_app.js PORT (with express and halson installed: see README.md).
"use strict";
const express = require("express");
const halson = require("halson");
const { authors, books, page, pages } = require("./library");

const app = express();
const hal = (res, resource) => res.type("application/hal+json").send(JSON.stringify(resource));

function bookResource(book) {
  const author = authors[book.authorId - 1];
  return halson({ id: book.id, title: book.title })
    .addLink("self", `/books/${book.id}`)
    .addLink("author", { href: `/authors/${author.id}`, title: author.name })
    .addLink("collection", "/books");
}

app.get("/", (req, res) =>
  hal(
    res,
    halson({ name: "Library" })
      .addLink("self", "/")
      .addLink("curies", { name: "lib", href: "/docs/rels/{rel}", templated: true })
      .addLink("lib:books", { href: "/books", title: "Books" })
      .addLink("lib:authors", { href: "/authors", title: "Authors" })
      .addLink("lib:find", { href: "/books{?title}", templated: true }),
  ),
);

app.get("/books", (req, res) => {
  const number = Math.max(1, parseInt(req.query.page || "1", 10) || 1);
  const resource = halson({ page: number, pages, total: books.length })
    .addLink("self", `/books?page=${number}`)
    .addLink("first", "/books?page=1")
    .addLink("last", `/books?page=${pages}`);
  if (number > 1) resource.addLink("prev", `/books?page=${number - 1}`);
  if (number < pages) resource.addLink("next", `/books?page=${number + 1}`);
  for (const book of page(number)) resource.addEmbed("books", bookResource(book));
  hal(res, resource);
});

app.get("/books/:id", (req, res) => {
  const book = books[parseInt(req.params.id, 10) - 1];
  if (!book) return res.status(404).type("application/problem+json").send('{"title":"Not Found","status":404}');
  hal(res, bookResource(book));
});

app.get("/authors", (req, res) => {
  const resource = halson({ total: authors.length }).addLink("self", "/authors");
  for (const author of authors) {
    resource.addEmbed(
      "authors",
      halson({ id: author.id, name: author.name }).addLink("self", `/authors/${author.id}`),
    );
  }
  hal(res, resource);
});

app.get("/authors/:id", (req, res) => {
  const author = authors[parseInt(req.params.id, 10) - 1];
  if (!author) return res.status(404).end();
  const resource = halson({ id: author.id, name: author.name }).addLink("self", `/authors/${author.id}`);
  for (const book of books.filter((b) => b.authorId === author.id)) {
    resource.addLink("books", { href: `/books/${book.id}`, title: book.title });
  }
  hal(res, resource);
});

app.listen(parseInt(process.argv[2] || "18201", 10), "127.0.0.1");
