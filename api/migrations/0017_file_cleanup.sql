-- Daily clean-up of files no record keeps (issue #9): uploads never saved with a form, and saved
-- installers or configuration files a newer upload replaced. The job claims its day in
-- scheduled_jobs as the licence expiry job does, so several API processes run it once.
insert into scheduled_jobs (name) values ('file-cleanup');

-- The job's search: files not yet saved, oldest first.
create index files_unsaved_created_idx on files (created_at) where state <> 'saved';
