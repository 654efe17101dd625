#!/usr/bin/perl
# tests/calls.pl OBJDIR - the call graph between source files, from the
# objects' symbol tables (nm): file A calls file B when A uses a symbol B
# defines. Prints every circle of files as "a.c -> b.c -> a.c", one a line,
# and exits 1 when there is one (tests/t0100-layers.t runs it on build/obj).
use strict;
use warnings;
use File::Find;

my $dir = shift or die "usage: calls.pl OBJDIR\n";
my (%def, %use, @objs);
find({ no_chdir => 1, wanted => sub { push @objs, $File::Find::name if /\.o$/ } }, $dir);
# one nm over all the objects (-A: each line names its object): nm's
# start-up (binutils loads its plugins) cost 0.1 CPU-s an object, 24 of
# t0100's 25 CPU-s when it ran once an object
while (my @chunk = splice(@objs, 0, 500)) {
	open(my $nm, '-|', 'nm', '-A', @chunk) or die "nm: $!\n";
	while (<$nm>) {
		my ($obj, $rest) = /^(.+?\.o):(.*)$/ or next;
		(my $src = $obj) =~ s{^\Q$dir\E/}{};
		$src =~ s/\.o$/.c/;
		if ($rest =~ /^\s+U (\S+)$/) { $use{$src}{$1} = 1 }
		elsif ($rest =~ /^[0-9a-f]+ [TDBR] (\S+)$/) { $def{$1} = $src }
	}
	close $nm;
}

my %edge;
for my $a (keys %use) {
	for my $s (keys %{ $use{$a} }) {
		my $b = $def{$s};
		$edge{$a}{$b} = 1 if defined $b && $b ne $a;
	}
}

# Tarjan's strongly connected components: a component of more than one
# file is a circle.
my ($index, @stack, %on, %idx, %low, @circles) = (0);
sub strong {
	my $v = shift;
	$idx{$v} = $low{$v} = $index++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort keys %{ $edge{$v} || {} }) {
		if (!defined $idx{$w}) {
			strong($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		} elsif ($on{$w}) {
			$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
		}
	}
	if ($low{$v} == $idx{$v}) {
		my @c;
		my $w;
		do { $w = pop @stack; $on{$w} = 0; push @c, $w } while ($w ne $v);
		push @circles, [sort @c] if @c > 1;
	}
}
strong($_) for grep { !defined $idx{$_} } sort keys %use;
print join(' <-> ', @$_), "\n" for @circles;
exit(@circles ? 1 : 0);
