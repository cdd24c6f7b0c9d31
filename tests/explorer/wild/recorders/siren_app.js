// An express app that answers in Siren built with siren-writer, as its README shows
// (URI relations under http://x.io/rels/, relative hrefs made absolute by the writer).
// Run: node siren_app.js PORT (with express and siren-writer installed: see README.md).
"use strict";
const express = require("express");
const writer = require("siren-writer");
const { authors, books, page, pages } = require("./library");

const port = parseInt(process.argv[2] || "18202", 10);
const siren = writer(`http://localhost:${port}`);
const app = express();
const send = (res, entity) => res.type("application/vnd.siren+json").send(JSON.stringify(siren(entity)));

function bookEntity(book, rel) {
  const author = authors[book.authorId - 1];
  return {
    class: "book",
    rel,
    properties: { id: book.id, title: book.title },
    links: [
      { rel: "self", href: `books/${book.id}` },
      { rel: "http://x.io/rels/author", href: `authors/${author.id}`, title: author.name },
    ],
  };
}

app.get("/", (req, res) =>
  send(res, {
    class: "library",
    properties: { name: "Library" },
    links: [
      { rel: "self", href: "/" },
      { rel: "http://x.io/rels/books", href: "books", title: "Books" },
      { rel: "http://x.io/rels/authors", href: "authors", title: "Authors" },
    ],
    actions: {
      name: "find-books",
      title: "Find books",
      method: "GET",
      href: "books",
      fields: [{ name: "title", type: "text" }],
    },
  }),
);

app.get("/books", (req, res) => {
  const number = Math.max(1, parseInt(req.query.page || "1", 10) || 1);
  const links = [
    { rel: "self", href: `books?page=${number}` },
    { rel: "first", href: "books?page=1" },
    { rel: "last", href: `books?page=${pages}` },
  ];
  if (number > 1) links.push({ rel: "prev", href: `books?page=${number - 1}` });
  if (number < pages) links.push({ rel: "next", href: `books?page=${number + 1}` });
  send(res, {
    class: ["books", "collection"],
    properties: { page: number, pages, total: books.length },
    entities: page(number).map((book) => bookEntity(book, "item")),
    links,
    actions: {
      name: "add-book",
      title: "Add a book",
      method: "POST",
      href: "books",
      type: "application/x-www-form-urlencoded",
      fields: [
        { name: "title", type: "text" },
        { name: "authorId", type: "number" },
      ],
    },
  });
});

app.get("/books/:id", (req, res) => {
  const book = books[parseInt(req.params.id, 10) - 1];
  if (!book) return res.status(404).end();
  const { rel, ...entity } = bookEntity(book, undefined);
  entity.links.push({ rel: "collection", href: "books" });
  send(res, entity);
});

app.get("/authors", (req, res) =>
  send(res, {
    class: ["authors", "collection"],
    entities: authors.map((author) => ({
      class: "author",
      rel: "item",
      href: `authors/${author.id}`,
      title: author.name,
    })),
    links: [{ rel: "self", href: "authors" }],
  }),
);

app.get("/authors/:id", (req, res) => {
  const author = authors[parseInt(req.params.id, 10) - 1];
  if (!author) return res.status(404).end();
  send(res, {
    class: "author",
    properties: author,
    entities: books
      .filter((b) => b.authorId === author.id)
      .map((book) => ({ rel: "http://x.io/rels/book", href: `books/${book.id}`, title: book.title })),
    links: [{ rel: "self", href: `authors/${author.id}` }],
  });
});

// The Siren homepage's own example order, as siren-writer's README writes it.
app.get("/orders/42", (req, res) =>
  send(res, {
    class: "order",
    properties: { orderNumber: 42, itemCount: 3, status: "pending" },
    entities: [
      { class: ["items", "collection"], rel: "http://x.io/rels/order-items", href: "orders/42/items" },
      {
        class: ["info", "customer"],
        rel: "http://x.io/rels/customer",
        properties: { customerId: "pj123", name: "Peter Joseph" },
        links: { rel: "self", href: "customers/pj123" },
      },
    ],
    actions: {
      name: "add-item",
      title: "Add Item",
      method: "POST",
      href: "orders/42/items",
      type: "application/x-www-form-urlencoded",
      fields: [
        { name: "orderNumber", type: "hidden", value: "42" },
        { name: "productCode", type: "text" },
        { name: "quantity", type: "number" },
      ],
    },
    links: [
      { rel: "self", href: "orders/42" },
      { rel: "previous", href: "orders/41" },
      { rel: "next", href: "orders/43" },
    ],
  }),
);

app.listen(port, "127.0.0.1");
