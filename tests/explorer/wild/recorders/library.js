// The small library every express recorder serves: 25 books by 5 authors, 10 a page.
"use strict";
const authors = [1, 2, 3, 4, 5].map((id) => ({ id, name: `Author ${id}` }));
const books = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  title: `Book ${i + 1}`,
  authorId: (i % 5) + 1,
}));
const PAGE_SIZE = 10;
const pages = Math.ceil(books.length / PAGE_SIZE);
function page(number) {
  return books.slice((number - 1) * PAGE_SIZE, number * PAGE_SIZE);
}
module.exports = { authors, books, page, pages, PAGE_SIZE };
