-- Catalogue content in the user's language (issue #12): products and categories keep their
-- English text as the fallback; a translation row overrides it for one language. Removing a
-- product or category removes its translations.

create table product_translations (
  product_id integer not null references products (id) on delete cascade,
  language text not null check (language ~ '^[a-z]{2}(-[A-Z]{2})?$'),
  name text not null check (char_length(name) between 1 and 255),
  description text not null check (char_length(description) <= 4000),
  selection_message text check (char_length(selection_message) <= 1000),
  primary key (product_id, language)
);

create table category_translations (
  category_id integer not null references product_categories (id) on delete cascade,
  language text not null check (language ~ '^[a-z]{2}(-[A-Z]{2})?$'),
  display_name text not null check (char_length(display_name) between 1 and 255),
  primary key (category_id, language)
);
