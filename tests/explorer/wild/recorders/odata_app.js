// An odata-v4-server service with Books and Authors, written as its compiled
// examples are (decorators applied through tslib, as TypeScript emits them).
// Run: node odata_app.js PORT (with odata-v4-server installed: see README.md).
"use strict";
const tslib = require("tslib");
const { ODataServer, ODataController, Edm, odata } = require("odata-v4-server");
const library = require("./library");

class Author {}
tslib.__decorate([Edm.Key, Edm.Int32], Author.prototype, "Id", void 0);
tslib.__decorate([Edm.String], Author.prototype, "Name", void 0);

class Book {}
tslib.__decorate([Edm.Key, Edm.Int32], Book.prototype, "Id", void 0);
tslib.__decorate([Edm.String], Book.prototype, "Title", void 0);
tslib.__decorate([Edm.Int32], Book.prototype, "AuthorId", void 0);

const authors = library.authors.map((a) => Object.assign(new Author(), { Id: a.id, Name: a.name }));
const books = library.books.map((b) =>
  Object.assign(new Book(), { Id: b.id, Title: b.title, AuthorId: b.authorId }),
);

function page(items, query) {
  // $skip and $top, the paging odata-v4-server's README lists (the query is the parser's AST).
  const options = (query && query.value && query.value.options) || [];
  const find = (type, fallback) => {
    const option = options.find((o) => o.type === type);
    return option ? Number(option.value.raw) : fallback;
  };
  const skip = find("Skip", 0);
  return items.slice(skip, skip + find("Top", items.length));
}

class BooksController extends ODataController {
  find(query) {
    return page(books, query);
  }
  findOne(key) {
    return books.find((book) => book.Id == key);
  }
}
tslib.__decorate([odata.GET, tslib.__param(0, odata.query)], BooksController.prototype, "find", null);
tslib.__decorate([odata.GET, tslib.__param(0, odata.key)], BooksController.prototype, "findOne", null);
tslib.__decorate([odata.type(Book)], BooksController);

class AuthorsController extends ODataController {
  find() {
    return authors;
  }
  findOne(key) {
    return authors.find((author) => author.Id == key);
  }
}
tslib.__decorate([odata.GET], AuthorsController.prototype, "find", null);
tslib.__decorate([odata.GET, tslib.__param(0, odata.key)], AuthorsController.prototype, "findOne", null);
tslib.__decorate([odata.type(Author)], AuthorsController);

let LibraryServer = class LibraryServer extends ODataServer {};
LibraryServer = tslib.__decorate(
  [odata.namespace("Library"), odata.controller(BooksController, true, Book), odata.controller(AuthorsController, true, Author)],
  LibraryServer,
);
LibraryServer.create("/odata", parseInt(process.argv[2] || "18203", 10));
