#!/usr/bin/perl
# tests/calls.pl OBJDIR - the call graph between source files, from the
# objects' symbol tables (nm): file A calls file B when A uses a symbol B
# defines. Prints every circle of files as "a.c -> b.c -> a.c", one a line,
# and exits 1 when there is one (tests/t0100-layers.t runs it on build/obj).
use strict;
use warnings;
use File::Find;

my $dir = shift or die "usage: calls.pl OBJDIR\n";
my (%def, %use);
find({ no_chdir => 1, wanted => sub {
	return unless /\.o$/;
	my $obj = $File::Find::name;
	(my $src = $obj) =~ s{^\Q$dir\E/}{};
	$src =~ s/\.o$/.c/;
	open(my $nm, '-|', 'nm', $obj) or die "nm $obj: $!\n";
	while (<$nm>) {
		if (/^\s+U (\S+)$/) { $use{$src}{$1} = 1 }
		elsif (/^[0-9a-f]+ [TDBR] (\S+)$/) { $def{$1} = $src }
	}
	close $nm;
} }, $dir);

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
